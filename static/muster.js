// Muster: small progressive enhancements. The pages work without this file.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // An objective's holder: one tap cycles nobody -> player 1 -> player 2 -> nobody. On a
  // scenario map, tapping the zone or point cycles the same select.
  function mapItem(select) {
    var id = select.dataset.objective;
    var form = select.form || document;
    return id ? form.querySelector('.map g.tap[data-objective="' + id + '"]') : null;
  }

  function cycle(select) {
    if (select.disabled) return;
    select.selectedIndex = (select.selectedIndex + 1) % select.options.length;
    select.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function upgradeControls(root) {
    root.querySelectorAll("select.control-select").forEach(function (select) {
      if (select.dataset.upgraded) return;
      select.dataset.upgraded = "1";
      var button = document.createElement("button");
      button.type = "button";
      button.className = "cycle";
      button.disabled = select.disabled;
      var label = select.id ? root.querySelector('label[for="' + select.id + '"]') : null;
      function show() {
        var option = select.options[select.selectedIndex];
        button.textContent = option.textContent;
        button.dataset.holder = option.value;
        button.setAttribute("aria-label", (label ? label.textContent.trim() + ": " : "") + option.textContent + ". Tap to change.");
        var item = mapItem(select);
        if (item) item.setAttribute("data-holder", option.value !== "" ? option.value : (item.dataset.kept || ""));
      }
      button.addEventListener("click", function () { cycle(select); });
      select.addEventListener("change", show);
      var item = mapItem(select);
      if (item) {
        // Now the map has buttons: it is a group, and each button's name starts with what it shows.
        var map = item.closest("svg");
        if (map && map.getAttribute("role") === "img") map.setAttribute("role", "group");
        var shown = Array.prototype.map.call(item.querySelectorAll("text"), function (t) {
          t.before(" "); // SVG draws no loose spaces; they keep the words apart for assistive tech
          return t.textContent.trim();
        });
        item.setAttribute("aria-label", shown.join(" ") + ": tap to change who seized it");
        // A point keeps showing its holder until a capture is chosen.
        if (item.getAttribute("data-holder")) item.dataset.kept = item.getAttribute("data-holder");
        item.addEventListener("click", function () { cycle(select); });
        item.addEventListener("keydown", function (e) {
          if (e.key === "Enter" || e.key === " ") { e.preventDefault(); cycle(select); }
        });
      }
      select.after(button);
      show();
    });
  }

  // The MONSTER bonus only applies to tactics that have one.
  function linkTacticBonus(root) {
    var tactic = root.querySelector("#tactic");
    var bonus = root.querySelector('input[name="tactic_bonus"]');
    if (!tactic || !bonus) return;
    function sync() {
      var option = tactic.options[tactic.selectedIndex];
      var has = option && option.dataset.bonus === "yes";
      bonus.disabled = !has;
      if (!has) bonus.checked = false;
    }
    tactic.addEventListener("change", sync);
    sync();
  }

  // The side choice shows the names as they are typed.
  function mirrorNames(root) {
    root.querySelectorAll("[data-name-of]").forEach(function (span) {
      var input = root.querySelector("#name" + span.dataset.nameOf);
      if (!input || input.dataset.mirrored) return;
      input.dataset.mirrored = "1";
      var fallback = span.textContent;
      input.addEventListener("input", function () { span.textContent = input.value.trim() || fallback; });
    });
  }

  function enhance(root) {
    upgradeControls(root);
    linkTacticBonus(root);
    mirrorNames(root);
  }

  document.addEventListener("DOMContentLoaded", function () { enhance(document); });
  document.addEventListener("htmx:after:swap", function () { enhance(document); });
  // offline.js shows a step rendered ahead (a <template>) without a swap.
  document.addEventListener("muster:enhance", function () { enhance(document); });
})();
