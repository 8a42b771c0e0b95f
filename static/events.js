// The round clock on the board and the phones: counts down each second between the
// server's refreshes, from the end time the server rendered (data-round-ends, UTC).
(function () {
  "use strict";
  // The page's language (the words script before this one); English if it could not load.
  var tr = window.musterSay || function (text) { return text; };
  function tick() {
    document.querySelectorAll("[data-round-ends]").forEach(function (clock) {
      var ends = Date.parse(clock.getAttribute("data-round-ends"));
      var out = clock.querySelector(".time-left");
      if (!out || isNaN(ends)) return;
      var left = Math.round((ends - Date.now()) / 1000);
      if (left <= 0) { out.textContent = tr("time is up"); return; }
      var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
      out.textContent = (h ? h + ":" + String(m).padStart(2, "0") : m) + ":" + String(s).padStart(2, "0");
    });
  }
  setInterval(tick, 1000);
  document.addEventListener("DOMContentLoaded", tick);
})();
