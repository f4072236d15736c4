// Camel Up scoreboard: draws each full snapshot the table sends on /events.
// Read-only: the only requests are the stream itself and, in a replay, the
// step buttons. Every snapshot is complete, so a page that reconnects (phone
// asleep, wifi gone) shows the current table from its first message; the page
// itself carries the snapshot of when it was served, drawn before the stream opens.
"use strict";

(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const $ = (id) => document.getElementById(id);
  const state = { view: null, spokenDie: null, firstAfterConnect: true, lastMessage: 0 };

  // -- the page's words, in the table's language: the server fills the "words" block
  // ({english: translated}, camelhost.web.words); a word it lacks stays English.
  // t("{0}'s turn", name): the sentence with its names and numbers where they go.
  const WORDS = (function () {
    try { return JSON.parse($("words").textContent).words || {}; } catch (e) { return {}; }
  })();
  // the table's language code ("en", "de"), also the language the page writes its numbers in
  const LANG = (function () {
    try { return JSON.parse($("words").textContent).lang || null; } catch (e) { return null; }
  })();
  // each colour's word and three-letter label in the table's language ({colour: [word,
  // label]}, camelhost.web.words: the catalogue's words, the full screen's labels)
  const COLOURS = (function () {
    try { return JSON.parse($("words").textContent).colours || {}; } catch (e) { return {}; }
  })();
  function cw(colour) { return COLOURS[colour] ? COLOURS[colour][0] : colour; }
  function label(colour) {
    return COLOURS[colour] ? COLOURS[colour][1] : (colour === "grey" ? "gry" : colour.slice(0, 3));
  }
  function t(word) {
    const args = Array.prototype.slice.call(arguments, 1);
    return (WORDS[word] || word).replace(/\{(\d+)\}/g, (m, i) => (i < args.length ? String(args[i]) : m));
  }
  function translateStatic() {
    for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.textContent.trim());
    for (const node of document.querySelectorAll("[data-t-title]")) node.title = t(node.title);
    for (const node of document.querySelectorAll("[data-t-label]")) {
      node.setAttribute("aria-label", t(node.getAttribute("aria-label")));
    }
    if (LANG) document.documentElement.lang = LANG;
  }

  // -- small DOM helpers (text only through textContent: names are typed by people)
  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function svg(tag, attrs, text) {
    const node = document.createElementNS(SVG, tag);
    for (const key in attrs) node.setAttribute(key, attrs[key]);
    if (text !== undefined) node.textContent = String(text);
    return node;
  }
  function nameEl(tag, cls, name) {
    // a typed name: shortened with an ellipsis by the style sheet where space is
    // short, the whole name on hover and for screen readers
    const node = el(tag, "name " + (cls || ""), name);
    node.title = String(name);
    return node;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }
  // a share as the table's language writes a percentage (Intl, CLDR): "37%", German
  // "37 %"; rounded to a whole percent first, half to even, as the terminal rounds
  // (camelhost.i18n.percent: Python's "%.0f" of the same 100 * p), so 12.5 is 12 on both
  // and the figure is the same in any language
  const PERCENT = (function () {
    try {
      return new Intl.NumberFormat(LANG || "en", { style: "unit", unit: "percent",
                                                   maximumFractionDigits: 0 });
    } catch (e) { return null; }
  })();
  function halfEven(x) {
    // x to a whole number, an exact half to the even neighbour (12.5 -> 12, 13.5 -> 14);
    // the same double as Python's, so the same figure
    const r = Math.round(x);
    return (Math.abs(x - Math.trunc(x)) === 0.5 && r % 2 !== 0) ? r - 1 : r;
  }
  function pct(p) {
    const whole = halfEven(100 * p);
    return PERCENT ? PERCENT.format(whole) : whole + "%";
  }
  function plural(n, one, many) { return n === 1 ? t(one) : t(many, n); }
  function chip(colour, text) {
    const c = el("span", "chip c-" + colour, text);
    c.dataset.colour = colour;
    return c;
  }
  // a player's coins with the game's unit as the terminal writes it ("3 coins",
  // German "3 EP"): the figure large, the unit small after it
  function coinsEl(n) {
    const purse = el("span", "purse");
    purse.appendChild(el("span", "coins", n));
    purse.appendChild(document.createTextNode(" "));
    purse.appendChild(el("span", "coin-unit", n === 1 ? t("coin") : t("coins")));
    return purse;
  }
  function dieBox(colour, cls) {
    // three letters on the die, as on the camels: never the colour alone
    const d = el("span", "die c-" + colour + (cls ? " " + cls : ""), label(colour));
    d.dataset.die = colour;
    d.title = t("{0} die", cw(colour));
    return d;
  }

  // -- the track ---------------------------------------------------------------
  // A space is COL units wide; each camel of a stack a ROW high, its label beside it on
  // the board (tester s32 / s32-2: 'gel' on the yellow camel, 'wei' on the white one,
  // was hard to read on a TV). The labels are LABEL_FONT units: at 1280x720 the track is
  // drawn at 0.7-0.8 px a unit, so they are 16 px or more there (a stack up to five high).
  // A tile reaches TILE_OVER into the room under each neighbouring space (no tile lies next
  // to another, RULES 1.5: two tiles a space apart keep COL - 2 * TILE_OVER between them);
  // its words are drawn down to SQUEEZE of their width before a name is shortened.
  const COL = 100, ROW = 25, LABEL_FONT = 23, SPACE_H = 34, TILE_H = 34, GAP = 16, TILE_OVER = 40,
        STEP_MIN = 21, CAMEL_SCALE = 0.52, SQUEEZE = 0.75, TILE_SPARE = 16;

  function camelShape(colour, crazy, x, y) {
    // A camel drawn facing right in a 90x40 box scaled to CAMEL_SCALE (47x21 units) at
    // the space's left, its bottom at y + ROW; crazy camels face backwards (left) and
    // carry a red pennant over the tail pointing the way they move. Its three-letter label
    // (the full screen's: German 'gel', 'wei') beside it, in the board's ink.
    const g = svg("g", { "class": "camel c-" + colour, "data-camel": colour });
    const top = y + ROW - 40 * CAMEL_SCALE;
    const body = svg("g", {
      transform: crazy ? "translate(" + (x + 2 + 90 * CAMEL_SCALE) + "," + top + ") scale(-" + CAMEL_SCALE + "," + CAMEL_SCALE + ")"
                       : "translate(" + (x + 2) + "," + top + ") scale(" + CAMEL_SCALE + ")" });
    body.appendChild(svg("path", {
      "class": "camel-body",
      d: "M4 30 Q4 14 20 13 Q28 1 38 10 Q46 3 55 12 L62 14 Q64 5 71 3 L82 4 " +
         "Q88 6 84 11 L76 12 Q75 24 70 30 Z" }));
    body.appendChild(svg("rect", { "class": "camel-body", x: 12, y: 28, width: 6, height: 12, rx: 2 }));
    body.appendChild(svg("rect", { "class": "camel-body", x: 56, y: 28, width: 6, height: 12, rx: 2 }));
    // the pennant over the tail, pointing the camel's way (mirrored with it: left)
    if (crazy) body.appendChild(svg("path", { "class": "camel-back", d: "M0 -2 L16 5 L0 12 Z" }));
    g.appendChild(body);
    g.appendChild(svg("text", { "class": "camel-label", x: x + 3 + 90 * CAMEL_SCALE, y: y + ROW - 3 },
                      label(colour)));
    return g;
  }

  // The track as a screen reader says it (the picture's labels are only the camels'
  // first letters): each space with camels, its stack bottom to top by the camels' words,
  // and each space with a player's tile, whose desert tile (classic) or spectator tile
  // (second edition) and its side, in the table's language (RULES 1.5, 2.5, 3.6).
  function trackWords(columns, tiles, edition) {
    const said = [];
    for (const c of columns) {
      if (c.camels.length) {
        const camels = c.camels.map((m) => cw(m.colour)).join(", ");
        said.push(c.space === 0 ? t("behind the start, bottom to top: {0}", camels)
          : c.space === 17 ? t("past the finish, bottom to top: {0}", camels)
            : t("space {0}, bottom to top: {1}", c.space, camels));
      }
      const tile = tiles[c.space];
      if (tile) {
        const side = tile.name || (tile.side === "+" ? "+" : "\u2212");
        said.push(t(edition === "classic" ? "space {0}: {1}'s desert tile, {2} side"
                                          : "space {0}: {1}'s spectator tile, {2} side",
                    c.space, tile.owner, side));
      }
    }
    return [t("the track")].concat(said).join("; ");
  }

  function drawTrack(v) {
    const root = clear($("track"));
    const stacks = {}, tiles = {};
    let low = [], high = [];
    for (const row of v.track || []) { stacks[row.space] = row.stack; tiles[row.space] = row.tile; }
    for (const row of v.beyond || []) {
      if (row.space < 1) low = low.concat(row.stack); else high = high.concat(row.stack);
    }
    const columns = [];
    if (low.length) columns.push({ label: "<1", camels: low, space: 0 });
    for (let s = 1; s <= 16; s++) columns.push({ label: String(s), camels: stacks[s] || [], space: s });
    if (high.length) columns.push({ label: "\u2691", camels: high, space: 17 });
    const width = root.parentNode.clientWidth;
    // one row on a wide screen (its layouts leave the track the whole width or most
    // of it), else rows of 9 or 6 spaces
    const perRow = width < 720 ? 6 : width < 1200 && window.innerWidth < 1000 ? 9 : columns.length;
    const rows = [];
    for (let i = 0; i < columns.length; i += perRow) rows.push(columns.slice(i, i + perRow));
    // each row as tall as its own tallest stack (at least two camels), tiles under it; a
    // stack higher than five is drawn closer (never closer than its labels' type), so
    // the track keeps about a five-high stack's height and its labels their size
    let y = 0;
    const layout = rows.map((row) => {
      const tall = Math.max(2, ...row.map((c) => c.camels.length));
      const step = tall <= 5 ? ROW : Math.max(STEP_MIN, (4 * ROW) / (tall - 1));
      const top = y, camels = (tall - 1) * step + ROW;
      y += camels + SPACE_H + TILE_H + GAP;
      return { top: top, base: top + camels, step: step };
    });
    root.setAttribute("viewBox", "0 0 " + perRow * COL + " " + (y - GAP));
    root.setAttribute("aria-label", trackWords(columns, tiles, v.edition));
    const leader = (v.ranking || [])[0];
    const tileLabels = [];
    columns.forEach((col, i) => {
      const x = (i % perRow) * COL, at = layout[Math.floor(i / perRow)], base = at.base;
      const g = svg("g", { "class": "space", "data-space": col.space,
                           "data-camels": col.camels.map((c) => c.colour).join(",") });
      g.appendChild(svg("rect", { "class": "space-floor" + (col.space % 2 ? " odd" : ""),
                                  x: x + 2, y: base + 2, width: COL - 4, height: SPACE_H - 4, rx: 6 }));
      g.appendChild(svg("text", { "class": "space-label", x: x + COL / 2, y: base + SPACE_H - 10 },
                        col.label));
      // drawn from the top camel down: each camel's feet over the back of the one below
      col.camels.map((camel, level) => [camel, level]).reverse().forEach(([camel, level]) => {
        const shape = camelShape(camel.colour, camel.crazy, x, base - level * at.step - ROW);
        if (camel.colour === leader) shape.classList.add("leader");
        g.appendChild(shape);
      });
      const tile = tiles[col.space];
      if (tile) {
        const tg = svg("g", { "class": "tile " + (tile.side === "+" ? "tile-plus" : "tile-minus"),
                              "data-owner": tile.owner, "data-side": tile.side });
        // wider than its space (RULES: no tile lies next to another, so the neighbours'
        // room under their spaces is free), kept within the row; at a row's end (or start)
        // it reaches TILE_SPARE further into the one neighbour it has, a tile two spaces
        // away still apart from it
        const end = x + COL >= perRow * COL, start = x === 0;
        const left = Math.max(2, x - TILE_OVER - (end && !start ? TILE_SPARE : 0)),
              right = Math.min(perRow * COL - 2, x + COL + TILE_OVER + (start && !end ? TILE_SPARE : 0));
        tg.appendChild(svg("rect", { x: left, y: base + SPACE_H, width: right - left, height: TILE_H - 4, rx: 5 }));
        // its owner and its side's word, as plain mode's 'tiles: 7 Bernd oasis' (tester s34
        // W4: '+1 Bernd' under its space read as a payment, beside the coins); drawn
        // narrower where it is wider than the tile, a long name shortened, never the word
        // centred on the tile, not its space: at a row's end (a phone's spaces 6 and 12) the
        // tile spills one way only, and centred on its space its words had half its room
        // (`H\u2026 cheering`, tester s44 finding 2)
        const label = svg("text", { x: (left + right) / 2, y: base + SPACE_H + TILE_H - 12 });
        const owner = svg("tspan", { "class": "tile-owner" }, tile.owner);
        label.appendChild(owner);
        label.appendChild(svg("tspan", { "class": "tile-side" },
                              " " + (tile.name || (tile.side === "+" ? "+" : "\u2212"))));
        tg.appendChild(label);
        // in the table's language, as every word on the page (tester s32-2, finding 6)
        tg.appendChild(svg("title", {}, tile.name ? t("{0}'s {1}", tile.owner, tile.name)
                                                  : t("{0}'s tile", tile.owner)));
        g.appendChild(tg);
        tileLabels.push([label, right - left - 8, owner]);
      }
      root.appendChild(g);
    });
    for (const [label, room, owner] of tileLabels) fitText(label, room, owner);
  }

  // An SVG text made at most ``room`` units wide: drawn narrower, down to SQUEEZE of its
  // width (its letters as high as before, so as big to read); if that is not enough, its
  // ``part`` (a tspan: a tile's owner, else the whole text) shortened with an ellipsis
  // first (the owner's whole name stays in the tile's title).
  function fitText(node, room, part) {
    if (!node.getComputedTextLength || node.getComputedTextLength() <= room) return;
    const target = part || node;
    let text = target.textContent;
    while (text.length > 1 && node.getComputedTextLength() * SQUEEZE > room) {
      text = text.slice(0, -1);
      target.textContent = text.replace(/\s+$/, "") + "\u2026";
    }
    if (node.getComputedTextLength() > room) {
      node.setAttribute("textLength", room);
      node.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
  }

  // -- the last die ----------------------------------------------------------------
  // characters of the last die's words ("{camel} {way}") past which they are set a
  // size smaller (the longest English, "PURPLE BACKWARD 3", has 17)
  const CAMEL_LINE_LONG = 18;

  function drawAnnounce(v) {
    const box = $("announce"), d = v.last_die;
    box.className = "";
    delete box.dataset.camel;
    if (v.final) {
      // the race over, whatever ended it (a die, or a redo giving the last die back):
      // the result, and an undo's or redo's words beside it (docs/web.md "At the race end")
      box.classList.add("announce-final");
      $("die-arrow").textContent = "\u2691";
      $("die-distance").textContent = "";
      $("die-camel").textContent = t("race over: {0} wins", cw(v.final.winner));
      const last = t("{0} is last", cw(v.final.loser));
      $("die-detail").textContent = v.undo ? last + " \u00B7 \u21B6 " + v.undo : last;
      return;
    }
    if (v.undo) {
      // an undo or a redo: the coins, tickets and camels moved back (or forward again)
      // with no die; the table's own words of it, until the next action
      // a long one (a leg's scoring taken back names every player's coins and tickets)
      // in the body text's size, so it keeps to the panel
      box.classList.add("announce-undo");
      if (v.undo.length > 140) box.classList.add("undo-long");
      $("die-arrow").textContent = "\u21B6";
      $("die-distance").textContent = "";
      $("die-camel").textContent = v.undo;
      $("die-detail").textContent = "";
      return;
    }
    if (!d) {
      box.classList.add("announce-none");
      $("die-arrow").textContent = "";
      $("die-distance").textContent = "";
      $("die-camel").textContent = v.phase === "setup" ? t("setting up the camels") : t("no die yet this race");
      $("die-detail").textContent = "";
      return;
    }
    box.classList.add("c-" + d.camel, "announce-die");
    box.dataset.camel = d.camel;
    const forward = d.direction > 0;
    $("die-arrow").textContent = forward ? "\u25B6" : "\u25C0";
    $("die-distance").textContent = String(d.distance);
    // the banner's words: the camel, then which way and how far as every screen says it
    // (the server's ``which_way``: German "3 Felder vorwärts", the distance first)
    const words = t("{0} {1}", cw(d.camel), d.way);
    $("die-camel").textContent = words;
    // German's words are longer ("WEISS 2 FELDER RÜCKWÄRTS", English "WHITE BACKWARD
    // 2"): a size smaller, so they keep to one line beside the big number (board.css)
    if (words.length > CAMEL_LINE_LONG) box.classList.add("camel-long");
    const bits = [];
    if (d.player) bits.push(t("{0}'s pyramid ticket", d.player));
    bits.push(t("die {0}", d.said));  // the die and its value as every screen names them (the server's)
    if (d.why) bits.push(t("{0} moves: {1}", cw(d.camel), d.why));  // RULES 3.5 (a, b, c), the table's words
    if (d.carrying && d.carrying.length) bits.push(t("carrying {0}", d.carrying.map(cw).join(", ")));
    bits.push(d.path);  // the table's one wording: the tile landed on and where it sent the unit
    $("die-detail").textContent = bits.join(" \u00B7 ");
  }

  // -- panels ------------------------------------------------------------------------
  function drawPyramid(v) {
    const inside = clear($("dice-inside"));
    for (const die of v.dice_inside || []) inside.appendChild(dieBox(die, "in"));
    for (const die of v.dice_out || []) inside.appendChild(dieBox(die, "out"));
    // the die out on the table whose value (or numerals) the table asks: out, not inside
    const asked = v.leg && v.pending_die ? v.pending_die.colour : null;
    if (asked && !(v.dice_out || []).includes(asked)) inside.appendChild(dieBox(asked, "out"));
    const n = (v.dice_inside || []).length;
    $("dice-note").textContent = !v.ranking || !v.ranking.length ? "" :
      (n ? plural(n, "1 die inside", "{0} dice inside") + (v.dice_left_inside && n ? t(" (one stays in)") : "")
         : t("none inside"));
    const r = v.ranking || [];
    const lead = clear($("leading"));
    if (r.length >= 2) {
      lead.appendChild(el("span", "", t("1st") + " "));
      lead.appendChild(chip(r[0], cw(r[0])));
      lead.appendChild(el("span", "", " " + t("2nd") + " "));
      lead.appendChild(chip(r[1], cw(r[1])));
    }
  }

  function drawPlayers(v) {
    const box = clear($("players"));
    for (const p of v.players || []) {
      const acting = ["turn", "die", "ink", "value"].indexOf(v.phase) >= 0;
      const card = el("div", "player" + (acting && p.name === v.turn ? " current" : ""));
      card.dataset.name = p.name;
      const head = el("div", "player-head");
      head.appendChild(nameEl("span", "player-name", p.name));
      head.appendChild(coinsEl(p.coins));
      card.appendChild(head);
      const held = el("div", "held");
      // each badge read aloud by its words, never its glyphs run into the next one
      // ("5▲10 finish cards played": tester s32-2, finding 10)
      const said = (node, words) => {
        node.setAttribute("role", "img");
        node.setAttribute("aria-label", words);
        return node;
      };
      // and a space after each badge, drawn at no width (.gap-word), so a copy of the page
      // or a reader of its text gets "5 1 finish card played", never "51 finish card
      // played" (tester s34 W1)
      const badge = (node, words) => {
        held.appendChild(said(node, words));
        held.appendChild(el("span", "gap-word", " "));
      };
      for (const tk of p.leg_tickets || []) {
        badge(chip(tk.colour, tk.value), t("{0} leg ticket {1}", cw(tk.colour), tk.value));
      }
      if (p.pyramid_tickets) {
        badge(el("span", "chip pyramid", "\u25B2" + p.pyramid_tickets),
              plural(p.pyramid_tickets, "1 pyramid ticket", "{0} pyramid tickets"));
      }
      card.appendChild(held);
      // the tile, the partner and the cards played: each whole on a line (they wrap
      // between them, never inside one), a partner's long name shortened as names are
      const extra = el("div", "player-extra");
      const item = (node) => {
        if (extra.firstChild) extra.appendChild(document.createTextNode(" \u00B7 "));
        extra.appendChild(node);
      };
      const scored = sinceScoring(v) ? v.leg_scored.players.find((r) => r.name === p.name) : null;
      if (scored) item(el("span", "fact leg-net", t("leg {0} scored: {1}", v.leg_scored.leg, signed(scored.net))));
      if (p.tile) item(el("span", "fact tile-fact", tileWords(v, p.tile)));
      if (p.partner) {
        const words = t("partner {0}", "\u0000").split("\u0000");
        const fact = el("span", "fact partner");
        fact.appendChild(document.createTextNode(words[0]));
        fact.appendChild(nameEl("span", "", p.partner));
        if (words[1]) fact.appendChild(document.createTextNode(words[1]));
        item(fact);
      }
      // the count whole with its noun, "0 Wettkarten" / "0 finish cards", never "0" /
      // "Wettkarten gespielt" after "Partner Gus ·", read as the partner's (tester s37tp
      // finding 4): all but the last word (the verb, last in English and German) in
      // .count, an inline block, which goes to the next line whole
      const played = plural(p.finish_cards_played || 0, "1 finish card played", "{0} finish cards played");
      const cut = played.lastIndexOf(" ");
      const fact = el("span", "fact");
      fact.appendChild(el("span", "count", cut > 0 ? played.slice(0, cut) : played));
      if (cut > 0) fact.appendChild(document.createTextNode(played.slice(cut)));
      item(fact);
      card.appendChild(extra);
      box.appendChild(card);
    }
  }

  // A player's spectator tile by the edition's word for its side up (oasis / mirage,
  // cheering / booing, in the table's language: the track's tile on that space carries
  // it) and its space: "cheering on 10", German "Anfeuern auf 10", never
  // "+10", which reads as coins (short enough for eight cards at 1280x720 in German)
  function tileWords(v, tile) {
    const row = (v.track || []).find((r) => r.space === tile.space);
    const side = row && row.tile && row.tile.name ? row.tile.name : (tile.side === "+" ? "+" : "\u2212");
    return t("{0} on {1}", side, tile.space);
  }

  function bar(cls, p) {
    const outer = el("span", "bar " + cls);
    const inner = el("span", "fill");
    inner.style.width = Math.max(0, Math.min(100, 100 * p)) + "%";
    outer.appendChild(inner);
    return outer;
  }

  // The advice of ``v`` when it was computed for this very turn and position, else
  // null: never advice for a position already gone. A view may tag the advice with
  // the key of the position it was computed for (``odds.actions.key``, matched with
  // the view's ``key``); without tags, advice comes with its own position's view.
  function adviceOf(v) {
    const acts = v.odds && v.odds.actions;
    // a pyramid ticket waiting for its die: the player has acted, nothing is advised
    if (v.phase !== "turn") return null;
    if (!acts || v.odds_pending || !v.turn || acts.player !== v.turn) return null;
    if (acts.key !== undefined && v.key !== undefined && acts.key !== v.key) return null;
    return acts;
  }

  function drawBest(v) {
    const best = clear($("best")), acts = adviceOf(v);
    const values = acts && acts.values ? acts.values.slice(0, 3) : [];
    const reading = ["die", "ink", "value"].indexOf(v.phase) >= 0;  // a die on its way
    const computing = !values.length && v.odds_pending && v.turn && v.phase === "turn";
    const title = clear($("best-title"));
    if (values.length || computing) {
      title.appendChild(el("span", "", t("Best for")));
      title.appendChild(nameEl("span", "", values.length ? acts.player : v.turn));
    } else {
      title.textContent = t("Best now");
    }
    if (v.phase === "setup") {  // nothing to advise yet: say what will stand here
      best.appendChild(el("li", "none setup", t("once the race starts: the best actions for the player on turn, in the coach's order")));
    }
    if (computing) best.appendChild(el("li", "none computing", t("computing\u2026")));
    if (reading) best.appendChild(el("li", "none reading", t("No advice while a die is being read: it comes with the next turn")));
    best.dataset.for = values.length ? acts.player : "";
    // the table's words (``odds.actions.said``, server.with_advice_words): the action's
    // name and how far it is ahead of the next or behind the best; the best's sum on a
    // line of its own (the rest's are plain mode's 'best': a TV has no room for them);
    // the entry's own sentence when a view has none
    const said = acts && acts.said ? acts.said : [];
    values.forEach((a, i) => {
      const s = said[i];
      if (!s) { best.appendChild(el("li", "", a.text || a.action)); return; }
      const li = el("li", i === 0 ? "advice first" : "advice");
      li.appendChild(el("span", "advice-name", s.name));
      // the gap's parenthesis as text, not drawn by the style sheet: a copy of the page
      // reads "orange leg ticket 3 (3.08 ahead of the next)", never "33.08 ahead"
      // (tester s34 W1)
      if (s.gap) {
        const aside = el("span", "advice-aside", " (");
        aside.appendChild(el("span", "advice-gap", s.gap));
        aside.appendChild(document.createTextNode(")"));
        li.appendChild(aside);
      }
      if (i === 0) li.appendChild(el("span", "advice-figure", s.figure));
      best.appendChild(li);
    });
    const note = $("best-note");
    note.textContent = values.length && acts.said_note ? acts.said_note : "";
  }

  function drawOdds(v) {
    const panel = $("odds-panel");
    drawBest(v);
    if (!v.odds && v.odds_pending) {  // the odds of this position are on their way
      panel.classList.add("stale");
      document.documentElement.dataset.odds = "pending";
      return;
    }
    panel.classList.remove("stale");
    document.documentElement.dataset.odds = "ready";
    const odds = v.odds || {};
    const leg = clear($("leg-odds"));
    if (odds.leg) {
      const rows = odds.leg.slice().sort((a, b) => b.first - a.first);
      for (const o of rows) {
        const row = el("div", "odds-row");
        row.dataset.camel = o.colour;
        row.appendChild(chip(o.colour, cw(o.colour)));
        for (const key of ["first", "second", "last"]) {
          const cell = el("span", "odds-cell");
          cell.appendChild(bar("c-" + o.colour, o[key]));
          cell.appendChild(el("span", "pct pct-" + key, pct(o[key])));
          row.appendChild(cell);
        }
        leg.appendChild(row);
      }
    } else {
      leg.appendChild(el("p", "none", t("none now")));
    }
    const race = clear($("race-odds"));
    if (odds.race) {
      const p = { winner: {}, loser: {} };
      for (const key of ["winner", "loser"]) for (const o of odds.race[key]) p[key][o.colour] = o.p;
      const colours = odds.race.winner.map((o) => o.colour).sort((a, b) => p.winner[b] - p.winner[a]);
      for (const c of colours) {
        const row = el("div", "odds-row race");
        row.dataset.camel = c;
        row.appendChild(chip(c, cw(c)));
        for (const key of ["winner", "loser"]) {
          const cell = el("span", "odds-cell");
          cell.appendChild(bar("c-" + c, p[key][c]));
          cell.appendChild(el("span", "pct pct-" + key, pct(p[key][c])));
          row.appendChild(cell);
        }
        race.appendChild(row);
      }
    } else {
      race.appendChild(el("p", "none", t("none now")));
    }
  }

  function drawTickets(v) {
    const box = clear($("leg-tickets"));
    for (const pile of v.leg_tickets || []) {
      const c = pile.colour, values = pile.left || [];
      const row = el("div", "ticket-row");
      row.dataset.colour = c;
      row.appendChild(chip(c, cw(c)));
      if (!values.length) row.appendChild(el("span", "ticket none", t("none")));
      values.forEach((val, i) => {
        const ticket = el("span", "ticket c-" + c + (i ? " under" : " top"), val);
        if (i) ticket.style.setProperty("--under", "var(--" + c + ")");
        row.appendChild(ticket);
      });
      box.appendChild(row);
    }
    $("pyramid-tickets").textContent = v.ranking && v.ranking.length ?
      plural(v.pyramid_tickets_left || 0, "1 pyramid ticket left", "{0} pyramid tickets left") : "";
    const piles = clear($("piles"));
    for (const name of ["winner", "loser"]) {
      const n = (v.piles || {})[name] || 0;
      const pile = el("div", "pile");
      pile.dataset.pile = name;
      pile.appendChild(el("span", "pile-name", t("overall " + name)));
      // one back per card, the row labelled "face down": a lone back under its pile
      // read as a rendering glitch (tester s32 finding 4, s32-2 section 6)
      const backs = el("span", "backs");
      if (n && !v.final) {  // once the piles are revealed, none is face down
        backs.setAttribute("role", "img");
        backs.setAttribute("aria-label", plural(n, "1 finish card face down", "{0} finish cards face down"));
        backs.appendChild(el("span", "backs-label", t("face down")));
      }
      for (let i = 0; i < (v.final ? 0 : n); i++) backs.appendChild(el("span", "card-back"));
      pile.appendChild(backs);
      pile.appendChild(el("span", "pile-count", plural(n, "1 card", "{0} cards")));
      piles.appendChild(pile);
    }
  }

  // After a leg's scoring (docs/web.md): while nothing has happened since (the new
  // leg's first action not yet taken, ``leg_scored.latest``), the leg's scoring takes the
  // players' place, each row's coins before and after (the coins now), the new leg's odds
  // beside it; from the new leg's first action the players are back with their coins and
  // what they take, each card with its net of the leg just scored, until the new leg's
  // first die.
  function sinceScoring(v) {
    const s = v.leg_scored;
    return !!s && !v.final && s.leg === v.leg - 1 && !(v.dice_out || []).length;
  }
  function justScored(v) { return sinceScoring(v) && !!v.leg_scored.latest; }

  // what a partner's leg tickets paid a player ("from Ann +1", RULES 3.8): the
  // partner's name shortened where the scoring's column is narrow, whole in its title
  // (a 24-letter name ran out of the race's end page at 1024x768, over the coins)
  function copyChip(from, reward) {
    const node = el("span", "chip copy");
    const words = t("from {0}", "\u0000").split("\u0000");
    node.appendChild(el("span", "words", words[0]));
    node.appendChild(nameEl("span", "", from));
    node.appendChild(el("span", "words", (words[1] || "") + " " + signed(reward)));
    return node;
  }

  function drawLeg(v) {
    const panel = $("leg-panel"), s = v.leg_scored;
    const shown = !!s && (justScored(v) || !!v.final);
    panel.hidden = !shown;
    document.body.classList.toggle("scored", shown && !v.final);
    if (!shown) return;
    $("leg-title").textContent = t("Leg {0} scored: 1st {1}, 2nd {2}", s.leg, cw(s.ranking[0] || "-"),
                                   cw(s.ranking[1] || "-"));
    const body = clear($("leg-table").tBodies[0]);
    for (const row of s.players) {
      const tr = el("tr");
      tr.dataset.name = row.name;
      tr.appendChild(nameEl("th", "", row.name));
      const items = el("td", "items");
      for (const it of row.items) {
        if (it.kind === "leg") items.appendChild(chip(it.colour, it.value + " \u2192 " + signed(it.reward)));
        else if (it.kind === "pyramid") items.appendChild(el("span", "chip pyramid", "\u25B2 +" + (it.reward || 1)));
        else items.appendChild(copyChip(it.from, it.reward));
      }
      if (!row.items.length) items.appendChild(el("span", "none", t("nothing")));
      tr.appendChild(items);
      tr.appendChild(el("td", "net", signed(row.net)));
      // the coins before and after with their unit, as the cards write coins ("3 \u2192 9
      // coins", German "3 \u2192 9 EP"): the bare numbers beside the chips read as
      // anything (tester s32 finding 4, s32-2 section 6)
      const after = el("td", "after", row.before + " \u2192 ");
      after.appendChild(coinsEl(row.after));
      const lost = row.after - (row.before + row.net);
      if (lost > 0) {  // the zero floor forgave what could not be paid (RULES 1.9)
        const note = el("span", "forgiven", plural(lost, "1 coin forgiven", "{0} coins forgiven"));
        note.title = t("nobody goes below 0 (RULES 1.9)");
        after.appendChild(note);
      }
      tr.appendChild(after);
      body.appendChild(tr);
    }
  }
  function signed(n) { return (n > 0 ? "+" : n < 0 ? "\u2212" : "\u00B1") + Math.abs(n); }

  function drawFinal(v) {
    const panel = $("final-panel"), f = v.final;
    panel.hidden = !f;
    $("ranking-panel").hidden = !f;
    document.body.classList.toggle("over", !!f);
    document.body.classList.toggle("unscored", v.phase === "unscored");
    if (!f) {  // e.g. the last die undone: no revealed card stays in the page
      clear($("final-piles"));
      clear($("final-ranking"));
      return;
    }
    // the winner and the loser are the last die's place's words right above (tester s34
    // W3: said twice, one under the other); this panel's heading says what it shows
    $("final-title").textContent = t("Finish piles revealed");
    const piles = clear($("final-piles"));
    for (const name of ["winner", "loser"]) {
      const box = el("div", "revealed");
      box.dataset.pile = name;
      box.appendChild(el("h3", "", t("overall " + name + " pile, in play order")));
      const list = el("ol");
      (f.piles[name] || []).forEach((c, i) => {
        const li = el("li", c.correct ? "right" : "wrong");
        li.appendChild(el("span", "order", (i + 1) + "."));
        li.appendChild(nameEl("span", "", c.name));
        li.appendChild(chip(c.colour, cw(c.colour)));
        // what the card paid: a loss the zero floor forgave (RULES 1.9) is no payment,
        // said as the leg's scoring says it (tester s35 finding 11)
        const paid = c.after - c.before, lost = paid - c.reward;
        li.appendChild(el("span", "", signed(paid)));
        if (lost > 0) {
          const note = el("span", "forgiven", plural(lost, "1 coin forgiven", "{0} coins forgiven"));
          note.title = t("nobody goes below 0 (RULES 1.9)");
          li.appendChild(note);
        }
        list.appendChild(li);
      });
      if (!(f.piles[name] || []).length) list.appendChild(el("li", "none", t("empty")));
      box.appendChild(list);
      piles.appendChild(box);
    }
    const rank = clear($("final-ranking"));
    let place = 0;
    f.standings.forEach((r, i) => {
      // equal coins share a place (1, 1, 3): a tie is shown as a shared place
      if (i === 0 || r.coins !== f.standings[i - 1].coins) place = i + 1;
      const li = el("li", (f.winners || []).indexOf(r.name) >= 0 ? "winner" : "");
      li.dataset.name = r.name;
      li.dataset.place = place;
      li.appendChild(el("span", "place", place + "."));
      li.appendChild(nameEl("span", "player-name", r.name));
      li.appendChild(coinsEl(r.coins));
      rank.appendChild(li);
    });
  }

  function drawHeader(v) {
    $("title").textContent = t("Camel Up \u00b7 {0} edition", t(v.edition));
    $("where").textContent = !v.ranking || !v.ranking.length ? t("race {0}: setting up", v.race) :
      t("race {0} \u00b7 leg {1}", v.race, v.leg);
    const words = {
      turn: "{0}'s turn", die: v.dice_typed ? "{0}: type the die that came out" : "{0}: release a die",
      ink: "{0}: grey die, black or white numerals?",
      value: "{0}: which value did the die show?" };
    const turn = clear($("turn"));
    if (v.phase === "over" || v.phase === "unscored" || !v.turn) {
      turn.textContent = v.phase === "over" ? t("race over") : v.phase === "unscored" ?
        t("race ended unscored") : "";
    } else {
      withName(turn, words[v.phase] ? t(words[v.phase]) : "{0}", v.turn);
    }
  }

  // ``template`` (one ``{0}``) with ``name`` in ``node``: the words around the name
  // whole, the name shortened with an ellipsis where the line is short of room (the
  // header at 1024 px: "Alexandra: lass einen\u2026" cut the instruction, tester s35
  // finding 10)
  function withName(node, template, name) {
    const at = template.indexOf("{0}");
    if (at < 0) { node.textContent = template; return; }
    if (at > 0) node.appendChild(el("span", "words", template.slice(0, at)));
    node.appendChild(nameEl("span", "", name));
    if (template.length > at + 3) node.appendChild(el("span", "words", template.slice(at + 3)));
  }

  // The line to the pyramid (the view's "line", the link's measure): shown only while
  // noisy, with the share of its lines that arrive whole; gone once it is clean again.
  // The pyramid not answering (the view's "pyramid_away") comes first: the dice are
  // typed at the table meanwhile, as its header asks.
  function drawLine(v) {
    const node = $("pyramid-line");
    const line = v.line, away = v.pyramid_away;
    node.hidden = !(away || (line && line.noisy));
    node.textContent = node.hidden ? "" : away ?
      t("the pyramid is not answering: the dice are typed at the table") :
      t("noisy line to the pyramid: {0} of its lines whole", pct(line.quality));
  }

  function drawReplay(v) {
    const nav = $("replay");
    nav.hidden = !v.replay;
    document.body.classList.toggle("replaying", !!v.replay);
    if (!v.replay) return;
    $("replay-step").textContent = t("step {0} of {1}", v.replay.step, v.replay.steps);
    const play = $("play");
    play.dataset.control = v.replay.playing ? "pause" : "play";
    play.textContent = v.replay.playing ? "\u275A\u275A " + t("pause") : "\u25B6 " + t("play");
    play.title = t(v.replay.playing ? "pause" : "play");
  }

  function render(v) {
    const before = state.view;
    state.view = v;
    drawHeader(v);
    drawLine(v);
    drawAnnounce(v);
    drawPyramid(v);
    drawTrack(v);
    drawPlayers(v);
    drawOdds(v);
    drawTickets(v);
    drawLeg(v);
    drawFinal(v);
    drawReplay(v);
    fit();
    speak(v, before);
    document.documentElement.dataset.version = String(v.version);
  }

  // The wide layouts' column sets (board.css), in the order tried: the usual one, then
  // (1,280 px and wider) the advice or the last leg's scoring wider, then at the race's
  // end (1,000 px and wider) the revealed piles closer and the last leg's scoring its nets
  // and coins only. The first whose page fits the screen's height is kept, else the one
  // whose page is shortest: the panel a position fills most gets the room (eight German
  // players' finish-card advice stood 752-818 px tall at 1280x720 in its quarter of the
  // width; eight players' race end with 7 + 11 finish cards 797 px, tester s44 finding 1).
  // A narrower screen keeps its one layout.
  // In a replay each set is tried with the control bar under the odds, the tickets and the
  // advice, then under the players (main.bar-left, board.css).
  const FITS = ["", "fit-1", "fit-2", "fit-3"], BARS = ["", "bar-left"];
  function fit() {
    const main = document.querySelector("main"), page = document.documentElement;
    const use = (cls, bar) => {
      for (const c of FITS) if (c) main.classList.toggle(c, c === cls);
      main.classList.toggle("bar-left", bar === "bar-left");
    };
    use("", "");
    if (window.innerWidth < 1000) return;
    const bars = document.body.classList.contains("replaying") ? BARS : [""];
    let shortest = null;
    for (const cls of FITS) {
      for (const bar of bars) {
        use(cls, bar);
        const height = page.scrollHeight;
        if (height <= window.innerHeight) return;
        if (!shortest || height < shortest[2]) shortest = [cls, bar, height];
      }
    }
    use(shortest[0], shortest[1]);
  }

  // -- speech (Web Speech API), off until the toggle is pressed ----------------------
  function speechOn() { return window.localStorage && localStorage.getItem("speech") === "on"; }
  function showSpeech() {
    const b = $("speech"), on = speechOn();
    b.textContent = on ? t("speech on") : t("speech off");
    b.setAttribute("aria-pressed", on ? "true" : "false");
    b.hidden = !("speechSynthesis" in window);
  }
  // True when ``v`` is a later position than ``before`` by a die: a later race or leg,
  // or more dice out (or camels placed at setup, or the race's end). An undo (its view
  // comes before its words) or a replay stepping back shows an older die as the last:
  // never said again as new.
  function dieAhead(v, before) {
    if (!before) return true;
    if (v.race !== before.race) return v.race > before.race;
    if (v.leg !== before.leg) return v.leg > before.leg;
    const n = (x) => (x.dice_out || []).length + (x.setup_rolls || []).length + (x.final ? 1 : 0);
    return n(v) > n(before);
  }
  function speak(v, before) {
    const d = v.last_die;
    const key = d ? v.race + ":" + v.leg + ":" + JSON.stringify(d) : null;
    const fresh = key !== state.spokenDie && !state.firstAfterConnect && !v.undo && dieAhead(v, before);
    state.spokenDie = key;
    state.firstAfterConnect = false;
    if (!d || !fresh || !speechOn() || !("speechSynthesis" in window)) return;
    // the words --speak says, the server's (``spoken_die``): one wording in every language
    const said = new SpeechSynthesisUtterance(d.spoken);
    said.lang = document.documentElement.lang || "en";  // a voice of the table's language
    window.speechSynthesis.speak(said);
  }

  // -- the stream, reconnecting by itself ---------------------------------------------
  let source = null, retry = 1000, retryTimer = null;
  // the badge: "live" while the stream runs, "replay" while it shows a journal (never the
  // green "live": a replay is not the table now), "reconnecting" while it is down
  function setLink(up, text) {
    const link = $("link"), replaying = !!(state.view && state.view.replay);
    link.className = !up ? "link-down" : replaying ? "link-replay" : "link-up";
    link.textContent = up && replaying ? t("replay") : text;
  }
  function onSnapshot(e) {
    state.lastMessage = Date.now();
    retry = 1000;
    const view = JSON.parse(e.data);
    if (typeof view.version === "number") render(view);  // "{}": nothing published yet
    setLink(true, t("live"));
  }
  // The page arrives with the current snapshot (a JSON data block the server fills):
  // the table is drawn at once, before the stream opens. Its die is not spoken.
  function drawSnapshot() {
    const block = $("snapshot");
    if (!block) return;
    let view = null;
    try { view = JSON.parse(block.textContent); } catch (e) { return; }
    if (view && typeof view.version === "number") {
      state.firstAfterConnect = true;
      render(view);
    }
  }
  function connect() {
    if (retryTimer) { clearTimeout(retryTimer); retryTimer = null; }
    if (source) source.close();
    state.firstAfterConnect = true;
    source = new EventSource("events");
    source.addEventListener("snapshot", onSnapshot);
    source.addEventListener("resync", onSnapshot);
    source.addEventListener("ping", () => { state.lastMessage = Date.now(); });
    source.onopen = () => { state.lastMessage = Date.now(); setLink(true, t("live")); };
    source.onerror = () => {
      setLink(false, t("reconnecting"));
      if (source && source.readyState === EventSource.CLOSED) {
        source = null;
        retryTimer = setTimeout(connect, retry);
        retry = Math.min(retry * 2, 15000);
      }
    };
  }
  // A stream that went quiet (the server sends a ping every 15 s) is dead: a phone
  // that slept or a wifi that dropped often leaves no error behind.
  setInterval(() => {
    if (source && source.readyState === EventSource.OPEN && Date.now() - state.lastMessage > 40000) connect();
  }, 5000);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && (!source || source.readyState !== EventSource.OPEN)) connect();
  });
  window.addEventListener("online", connect);

  document.addEventListener("DOMContentLoaded", () => {
    translateStatic();
    showSpeech();
    $("speech").addEventListener("click", () => {
      localStorage.setItem("speech", speechOn() ? "off" : "on");
      showSpeech();
      if (speechOn()) window.speechSynthesis.speak(new SpeechSynthesisUtterance(t("speech on")));
    });
    for (const b of document.querySelectorAll("#replay button")) {
      b.addEventListener("click", () => {
        fetch("control/" + b.dataset.control, { method: "POST" });
      });
    }
    window.addEventListener("resize", () => { if (state.view) { drawTrack(state.view); fit(); } });
    drawSnapshot();
    connect();
  });
})();
