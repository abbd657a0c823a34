// The notices box's "Notify me on this device" (games/notices): registers the service worker,
// asks the browser for a push subscription with the server's VAPID key, and hands it to the
// server. Nothing happens until the player presses the button.
(function () {
  "use strict";
  var box = document.querySelector("[data-push-url]");
  if (!box) { return; }
  var button = box.querySelector("button[data-push-on]");
  var status = box.querySelector("[data-push-status]");
  function say(text) { if (status) { status.textContent = text; } }
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
    say(box.dataset.sayUnsupported || "");
    if (button) { button.hidden = true; }
    return;
  }
  function key(text) {
    var padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(padded), out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) { out[i] = raw.charCodeAt(i); }
    return out;
  }
  function csrf() {
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }
  function post(body) {
    return fetch(box.dataset.pushUrl, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify(body),
    }).then(function (answer) {
      return answer.json().then(function (data) {
        if (!answer.ok) { throw new Error(data.error || answer.status); }
        return data;
      });
    });
  }
  if (button) {
    button.addEventListener("click", function () {
      say(box.dataset.sayWorking || "");
      Notification.requestPermission().then(function (permission) {
        if (permission !== "granted") { throw new Error(box.dataset.sayDenied || permission); }
        return navigator.serviceWorker.register(box.dataset.swUrl, { scope: "/" });
      }).then(function () {
        return navigator.serviceWorker.ready;
      }).then(function (registration) {
        return registration.pushManager.subscribe({
          userVisibleOnly: true, applicationServerKey: key(box.dataset.vapidKey),
        });
      }).then(function (subscription) {
        return post(subscription.toJSON());
      }).then(function () {
        box.dataset.pushState = "on";
        say(box.dataset.sayOn || "");
      }).catch(function (error) {
        box.dataset.pushState = "failed";
        var why = error && error.message ? error.message.replace(/\.?$/, ".") : "";
        say([box.dataset.sayFailed || "", why, box.dataset.sayRetry || ""].join(" ").trim());
      });
    });
  }
})();
