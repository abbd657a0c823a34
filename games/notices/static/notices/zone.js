// The notices form (games/notices): an empty time zone field takes the browser's own zone.
(function () {
  "use strict";
  var zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { zone = ""; }
  document.querySelectorAll("input[data-browser-zone]").forEach(function (field) {
    if (!field.value && zone) { field.value = zone; }
  });
})();
