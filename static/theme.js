// Muster: the theme, before the first paint. Follows the phone's setting unless the player
// chose dark or light with the switch in the top bar; the choice is kept in localStorage.
(function () {
  "use strict";
  var KEY = "muster-theme";
  var MODES = ["auto", "dark", "light"];
  var COLOURS = { dark: "#14171c", light: "#f4f1ea" };
  // The page's language (the words script before this one); English if it could not load.
  var tr = window.musterSay || function (text) { return text; };
  var LABELS = {
    auto: tr("Theme: follows the phone. Tap for dark."),
    dark: tr("Theme: dark. Tap for light."),
    light: tr("Theme: light. Tap to follow the phone.")
  };

  function stored() {
    try {
      var value = localStorage.getItem(KEY);
      return value === "dark" || value === "light" ? value : "auto";
    } catch (e) {
      return "auto";
    }
  }

  function apply(mode) {
    var root = document.documentElement;
    if (mode === "auto") root.removeAttribute("data-theme");
    else root.setAttribute("data-theme", mode);
    document.querySelectorAll('meta[name="theme-color"]').forEach(function (meta) {
      if (!meta.dataset.system) meta.dataset.system = meta.getAttribute("content");
      meta.setAttribute("content", mode === "auto" ? meta.dataset.system : COLOURS[mode]);
    });
    document.querySelectorAll("[data-theme-switch]").forEach(function (button) {
      button.dataset.mode = mode;
      button.setAttribute("aria-label", LABELS[mode]);
    });
  }

  var current = stored();
  apply(current);

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-theme-switch]");
    if (!button) return;
    var next = MODES[(MODES.indexOf(current) + 1) % MODES.length];
    current = next;
    try {
      if (next === "auto") localStorage.removeItem(KEY);
      else localStorage.setItem(KEY, next);
    } catch (e) { /* private mode: the switch still works for this page */ }
    apply(next);
  });
  // The top bar is part of every swapped page: label the new switch too.
  document.addEventListener("DOMContentLoaded", function () { apply(current); });
  document.addEventListener("htmx:after:swap", function () { apply(current); });
})();
