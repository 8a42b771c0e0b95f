// Muster's dice roller: D3, D6, 2D6 and roll-offs (2 to 4 players, tied leaders roll again),
// rolled on the phone so that it works offline. A roll that decided something can be kept in
// the game's log with the form under the result (through the outbox when offline).
(function () {
  "use strict";
  // The page's language (the words script before this one); English if it could not load.
  var tr = window.musterSay || function (text) { return text; };
  var NAMES = { d3: tr("D3"), d6: tr("D6"), "2d6": tr("2D6"), "roll-off": tr("Roll-off") };

  // A fair die: reject the top of the range that would favour low faces.
  function die(faces) {
    var limit = Math.floor(256 / faces) * faces;
    var byte = new Uint8Array(1);
    do {
      crypto.getRandomValues(byte);
    } while (byte[0] >= limit);
    return (byte[0] % faces) + 1;
  }

  // Every player rolls a D6; the players tied for the highest roll again until one is left.
  function rollOff(players) {
    var contenders = [];
    for (var i = 0; i < players; i++) contenders.push(i);
    var rounds = [];
    for (;;) {
      var dice = {};
      contenders.forEach(function (p) { dice[p] = die(6); });
      rounds.push(dice);
      var best = Math.max.apply(null, contenders.map(function (p) { return dice[p]; }));
      contenders = contenders.filter(function (p) { return dice[p] === best; });
      if (contenders.length === 1) return { rounds: rounds, winner: contenders[0] };
    }
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function names(dialog) {
    try {
      return JSON.parse(dialog.dataset.players || "[]");
    } catch (e) {
      return [];
    }
  }

  function currentRound() {
    var step = document.getElementById("step");
    var game = document.getElementById("game");
    var key = (step && (step.dataset.shown || step.dataset.step)) || (game && game.dataset.step) || "";
    var match = /(\d+)/.exec(key);
    return match ? match[1] : game ? game.dataset.round : "";
  }

  function roll(dialog, kind) {
    var out = dialog.querySelector(".dice-out");
    var form = dialog.querySelector("form.roll-record");
    var note = dialog.querySelector("#roll-record-note");
    var who = names(dialog);
    var results = [];
    var winner = "";
    var summary;
    out.replaceChildren();
    if (kind === "roll-off") {
      var checked = dialog.querySelector('input[name="roll-off-size"]:checked');
      var size = checked ? Number(checked.value) : who.length || 2;
      var off = rollOff(size);
      var label = function (p) { return who[p] && p < who.length ? who[p] : tr("Player %(number)s", { number: p + 1 }); };
      var parts = [];
      off.rounds.forEach(function (dice, i) {
        var line = el("p", "dice-line");
        line.append(el("span", "dice-round", i === 0 ? tr("Roll-off:") : tr("Tie, again:")));
        var bits = [];
        Object.keys(dice).forEach(function (p) {
          var cell = el("span", "dice-player");
          cell.append(el("span", "", label(Number(p)) + " "), el("span", "die big", String(dice[p])));
          line.append(" ", cell);
          results.push(dice[p]);
          bits.push(tr("%(player)s %(roll)s", { player: label(Number(p)), roll: dice[p] }));
        });
        parts.push(bits.join(", "));
        out.append(line);
      });
      out.append(el("p", "dice-total", tr("%(player)s wins the roll-off.", { player: label(off.winner) })));
      winner = String(off.winner);
      // The rounds of a roll-off, as a list: "Anna 5, Ben 5; tie, again: Anna 2, Ben 6".
      var again = tr("; tie, again: ");
      summary = tr("Roll-off: %(rolls)s. %(player)s wins.", { rolls: parts.join(again), player: label(off.winner) });
      var recordable = size === who.length;
      if (form) form.hidden = !recordable;
      if (note) note.hidden = recordable || !form;
      if (form && !form.querySelector('input[name="purpose"]').value) {
        form.querySelector('input[name="purpose"]').value = tr("Who takes the first turn in battle round %(round)s", { round: currentRound() });
      }
    } else {
      var faces = kind === "d3" ? 3 : 6;
      var count = kind === "2d6" ? 2 : 1;
      var line = el("p", "dice-line");
      line.append(el("span", "dice-round", tr("%(dice)s:", { dice: NAMES[kind] })));
      for (var i = 0; i < count; i++) {
        results.push(die(faces));
        line.append(" ", el("span", "die big", String(results[i])));
      }
      out.append(line);
      var total = results.reduce(function (a, b) { return a + b; }, 0);
      if (count > 1) out.append(el("p", "dice-total", tr("Total %(total)s.", { total: total })));
      summary = tr("%(dice)s: %(rolls)s", { dice: NAMES[kind], rolls: results.join(" + ") + (count > 1 ? " = " + total : "") });
      if (form) form.hidden = false;
      if (note) note.hidden = true;
    }
    if (form) {
      form.querySelector('input[name="dice"]').value = kind;
      form.querySelector('input[name="results"]').value = results.join(",");
      form.querySelector('input[name="winner"]').value = winner;
      form.querySelector('input[name="id"]').value = window.MusterOutbox ? MusterOutbox.uuid() : form.querySelector('input[name="id"]').value;
      form.dataset.summary = summary;
    }
  }

  function dialogOf(node) { return node.closest ? node.closest("dialog.dice") : null; }

  document.addEventListener("click", function (event) {
    var target = event.target.closest ? event.target.closest("[data-open-dice], [data-close-dice], [data-roll]") : null;
    if (!target) return;
    if (target.hasAttribute("data-open-dice")) {
      var dialog = document.getElementById("dice");
      if (dialog && !dialog.open) dialog.showModal();
    } else if (target.hasAttribute("data-close-dice")) {
      dialogOf(target).close();
    } else {
      roll(dialogOf(target), target.dataset.roll);
    }
  });

  function closeAfterRecord(form) {
    var dialog = form && dialogOf(form);
    if (!dialog) return;
    form.hidden = true;
    form.querySelector('input[name="purpose"]').value = "";
    dialog.querySelector(".dice-out").replaceChildren();
    if (dialog.open) dialog.close();
  }
  // Recorded, refused (the game shows why) or kept on the phone: the dialog has done its job.
  document.addEventListener("htmx:after:request", function (event) {
    var ctx = event.detail && event.detail.ctx;
    if (ctx && ctx.response) closeAfterRecord(event.target.closest && event.target.closest("form.roll-record"));
  });
  document.addEventListener("muster:queued", function (event) {
    var form = event.detail && event.detail.form;
    if (form && form.classList.contains("roll-record")) closeAfterRecord(form);
  });
})();
