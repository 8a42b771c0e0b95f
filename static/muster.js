// Muster: small progressive enhancements. The pages work without this file.
(function () {
  "use strict";
  // The page's language (the words script before this one); English if it could not load.
  var tr = window.musterSay || function (text) { return text; };
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
        button.setAttribute("aria-label", label
          ? tr("%(label)s: %(holder)s. Tap to change.", { label: label.textContent.trim(), holder: option.textContent })
          : tr("%(holder)s. Tap to change.", { holder: option.textContent }));
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
        item.setAttribute("aria-label", tr("%(place)s: tap to change who seized it", { place: shown.join(" ") }));
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

  // A ploy's effect shows under the list as soon as it is chosen, before it is bought.
  function showEffects(root) {
    root.querySelectorAll("[data-effect-of]").forEach(function (line) {
      var select = root.querySelector("#" + CSS.escape(line.dataset.effectOf));
      if (!select || select.dataset.effects) return;
      select.dataset.effects = "1";
      function show() {
        var option = select.options[select.selectedIndex];
        var summary = option && option.value ? option.dataset.summary : "";
        line.textContent = summary ? tr("%(name)s: %(effect)s", { name: option.textContent.replace(/\s*\(.*$/, ""), effect: summary }) : "";
        line.hidden = !summary;
      }
      select.addEventListener("change", show);
      show();
    });
  }

  // The invite panel of a new game: Copy and Share send the join link, fetched from Muster
  // (the page never holds it, docs/offline.md); the panel closes once another phone joined.
  function invitePanel(root) {
    var panel = root.querySelector("#invite");
    if (!panel || panel.dataset.ready) return;
    panel.dataset.ready = "1";
    var said = panel.querySelector("[data-invite-said]");
    var link = null;
    fetch(panel.dataset.link, { credentials: "same-origin", cache: "no-store", headers: { "HX-Request": "true" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        var input = html ? new DOMParser().parseFromString(html, "text/html").querySelector("input.copy") : null;
        link = input ? input.value : null;
      })
      .catch(function () {});
    function shown() {
      // Without a clipboard (a plain http address) the link shows, selected, to copy by hand.
      var box = panel.querySelector("[data-invite-link]");
      box.replaceChildren();
      var input = document.createElement("input");
      input.className = "copy";
      input.readOnly = true;
      input.value = link;
      input.setAttribute("aria-label", tr("Join link"));
      box.append(input);
      box.hidden = false;
      input.select();
    }
    var copy = panel.querySelector('[data-invite="copy"]');
    copy.addEventListener("click", function () {
      if (!link) { said.textContent = tr("The link is not here yet: try again in a moment."); return; }
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(link).then(
          function () { said.textContent = tr("Link copied: paste it in a message to the other player."); },
          function () { shown(); said.textContent = tr("Copy the link below."); }
        );
      } else {
        shown();
        said.textContent = tr("Copy the link below.");
      }
    });
    var share = panel.querySelector('[data-invite="share"]');
    if (navigator.share) {
      share.hidden = false;
      share.addEventListener("click", function () {
        if (!link) { said.textContent = tr("The link is not here yet: try again in a moment."); return; }
        navigator.share({ title: document.title, text: tr("Join my game on Muster"), url: link }).catch(function () {});
      });
    }
    var asking = setInterval(function () {
      if (!panel.isConnected) { clearInterval(asking); return; }
      if (document.visibilityState !== "visible" || !navigator.onLine) return;
      fetch(panel.dataset.version, { credentials: "same-origin", cache: "no-store" })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (answer) {
          if (!answer || !answer.joined || !panel.isConnected) return;
          clearInterval(asking);
          var note = document.createElement("p");
          note.className = "notice";
          note.setAttribute("role", "status");
          note.id = "invite";
          note.textContent = tr("The other phone has joined: it can record in this game now.");
          panel.replaceWith(note);
        })
        .catch(function () {});
    }, 3000);
  }

  function enhance(root) {
    invitePanel(root);
    showEffects(root);
    upgradeControls(root);
    linkTacticBonus(root);
    mirrorNames(root);
  }

  // --- after an entry: the screen moves to what comes next, and Undo asks before taking back
  // another phone's entry. The entries this phone made are remembered by their ids (made in
  // the form), so a reload or another tab of this phone still knows them.
  var MINE = "muster-mine";
  var awaited = null;
  function mine() {
    try { return JSON.parse(localStorage.getItem(MINE) || "[]"); } catch (e) { return []; }
  }
  function remember(id) {
    var ids = mine().filter(function (x) { return x !== id; });
    ids.push(id);
    try { localStorage.setItem(MINE, JSON.stringify(ids.slice(-300))); } catch (e) { /* private mode */ }
  }
  function entryId(form) {
    var field = form.querySelector('input[type="hidden"][name="id"]');
    var kind = form.querySelector('input[type="hidden"][name="type"]');
    return field && kind && form.closest("#game") ? field.value : null;
  }
  // The question asked before a form is sent, in the page under the form's buttons. When the
  // game follows another phone (the screen is swapped), it is asked again of the same form in
  // the new screen, if that form is still offered. ``ask``: [question, yes, no].
  var pending = null;
  function placeOf(form) {
    if (form.dataset.undoOf) return 'form[data-undo-of="' + CSS.escape(form.dataset.undoOf) + '"]';
    if (form.dataset.once) return 'form[data-once="' + CSS.escape(form.dataset.once) + '"]';
    return null;
  }
  function askFirst(form, ask) {
    var box = form.asking;
    if (box && box.isConnected) { box.querySelector("button").focus(); return; }
    box = document.createElement("div");
    box.className = "undo-ask";
    box.setAttribute("role", "group");
    var p = document.createElement("p");
    p.textContent = ask[0];
    var yes = document.createElement("button");
    yes.type = "button";
    yes.className = "primary";
    yes.textContent = ask[1];
    var no = document.createElement("button");
    no.type = "button";
    no.className = "secondary";
    no.textContent = ask[2];
    yes.addEventListener("click", function () {
      pending = null;
      form.dataset.asked = "1";
      box.remove();
      if (form.requestSubmit) form.requestSubmit();
      else form.submit();
    });
    no.addEventListener("click", function () {
      pending = null;
      box.remove();
      var button = form.querySelector("button[type=submit]");
      if (button) button.focus();
    });
    box.append(p, yes, no);
    // Under the pair of buttons the form shares (Play and Discard), else inside the form.
    var pair = form.closest(".pair");
    if (pair) pair.after(box);
    else form.append(box);
    form.asking = box;
    var place = placeOf(form);
    pending = place ? { place: place, ask: ask } : null;
    yes.focus();
  }
  function askAgain() {
    if (!pending) return;
    var form = document.querySelector(pending.place);
    if (!form) { pending = null; return; }
    if (!form.asking || !form.asking.isConnected) askFirst(form, pending.ask);
  }
  window.addEventListener(
    "submit",
    function (event) {
      var form = event.target;
      var id = form && form.matches && entryId(form);
      if (!id) return;
      if (form.dataset.asked !== "1") {
        var of = form.dataset.undoOf;
        var ask = null;
        if (form.hasAttribute("data-undo") && of && mine().indexOf(of) < 0) {
          ask = [tr("Another phone recorded this entry. Take it back for everyone?"), tr("Yes, undo it"), tr("Keep it")];
        } else if (form.dataset.ask) {
          ask = [form.dataset.ask, form.dataset.askYes || tr("Yes"), form.dataset.askNo || tr("No")];
        }
        if (ask) {
          event.preventDefault();
          event.stopImmediatePropagation();
          askFirst(form, ask);
          return;
        }
      }
      remember(id);
      awaited = id;
    },
    true
  );
  // The answer is on screen (an htmx swap, or the offline layer's): show the line saying what
  // was recorded, with the next step under it.
  function showNext() {
    var line = document.getElementById("last-entry");
    if (!awaited || !line || line.dataset.event !== awaited) return;
    awaited = null;
    var welcome = document.getElementById("welcome");
    if (welcome) welcome.remove(); // said once: the phone has recorded since
    line.scrollIntoView({ block: "start" });
  }

  document.addEventListener("DOMContentLoaded", function () { enhance(document); });
  document.addEventListener("htmx:after:swap", showNext);
  document.addEventListener("htmx:after:swap", askAgain);
  document.addEventListener("muster:enhance", askAgain);
  document.addEventListener("muster:enhance", showNext);
  document.addEventListener("htmx:after:swap", function () { enhance(document); });
  // offline.js shows a step rendered ahead (a <template>) without a swap.
  document.addEventListener("muster:enhance", function () { enhance(document); });
})();
