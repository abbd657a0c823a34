// The app's service worker (games/notices, issue 41 item 4): it shows the push notifications
// the server sends and opens the game when one is tapped. It has no fetch handler: it caches
// nothing and never answers for a page, so a game page always comes fresh from the server and
// nothing a seat may see is kept on the device.
"use strict";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {}; }
  var url = typeof data.url === "string" ? data.url : "/";
  event.waitUntil(self.registration.showNotification(data.title || "", {
    body: data.body || "",
    tag: url,
    data: { url: url },
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (open) {
    for (var i = 0; i < open.length; i++) {
      if (open[i].url === url && "focus" in open[i]) { return open[i].focus(); }
    }
    return self.clients.openWindow(url);
  }));
});
