// Muster: small progressive enhancements. The pages work without this file.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // An objective's holder: one tap cycles nobody -> player 1 -> player 2 -> nobody.
  function upgradeControls(root) {
    root.querySelectorAll("select.control-select").forEach(function (select) {
      if (select.dataset.upgraded) return;
      select.dataset.upgraded = "1";
      var button = document.createElement("button");
      button.type = "button";
      button.className = "cycle";
      var label = select.id ? root.querySelector('label[for="' + select.id + '"]') : null;
      function show() {
        var option = select.options[select.selectedIndex];
        button.textContent = option.textContent;
        button.dataset.holder = option.value;
        button.setAttribute("aria-label", (label ? label.textContent.trim() + ": " : "") + option.textContent + ". Tap to change.");
      }
      button.addEventListener("click", function () {
        select.selectedIndex = (select.selectedIndex + 1) % select.options.length;
        select.dispatchEvent(new Event("change", { bubbles: true }));
        show();
      });
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

  function enhance(root) {
    upgradeControls(root);
    linkTacticBonus(root);
  }

  document.addEventListener("DOMContentLoaded", function () { enhance(document); });
  document.addEventListener("htmx:after:swap", function () { enhance(document); });
})();
