/*
 * The Play page's "play with friends": a table on a cucumber_rules server (cucumber-rules serve).
 *
 * The server that serves this site is the one the page talks to (the same origin): it checks every move
 * with the library and sends each seat only its own view, with the table's picture drawn from that view
 * (cucumber_rules.render), the narration of each action and the latest trick taken, so this script needs
 * no Python of its own. The protocol is on the docs' page "Hosting a table": POST /api/tables creates a
 * table; a WebSocket to /api/play joins it with a link's secret (and the name the person gives their
 * seat) and receives `table`, `view` and `error` messages; `act` messages play.
 *
 * A link is the Play page's address with `#join=<secret>`: opening it (or reloading the page) joins that
 * seat, and the page goes to the table (past the sample picture of the match against bots, which it
 * hides). The secret stays in the fragment, which the browser never sends to a server. The tab keeps, in
 * its sessionStorage, the links of the tables it created, the name it gave each seat and each table's log.
 *
 * The seats are counted from 1 on this part of the page, as "Player 1" to "Player n" (the names a seat
 * has until its person names it), so that a seat's place and its default name agree.
 *
 * The element:  <div id="friends" class="friends"></div>  (filled here; its data-state is "setup",
 * "offline", "connecting", "playing" or "over"; data-at, data-round, data-results and data-trick follow
 * the match: the actions so far, the round, the finished rounds, the cards of the trick on the table;
 * data-seat is the link's seat, from 0 as the server counts, or "spectator").
 *
 * With the theme's instant navigation the page is set up each time the theme's `document$` shows it, and
 * leaving it closes the table's WebSocket, stops reconnecting and drops the page's listeners. The links
 * this script writes (a seat's, "Leave this table") are followed by the browser itself (target="_self"),
 * so that joining or leaving a seat loads the page afresh.
 */
(function () {
  "use strict";

  const JOIN = /^#join=([A-Za-z0-9_-]{20,200})$/;
  const CREATED = "cucumber-rules-friends-links"; // sessionStorage: the links of tables made in this tab
  const NAMED = "cucumber-rules-friends-name:"; // + a secret: the name this tab gave that link's seat
  const LOGGED = "cucumber-rules-friends-log:"; // + a secret: {at, lines} of the log this tab kept
  const KEPT_LINES = 400;
  // A seat's name, as the server takes it: 1 to 40 characters, no control characters, no space at the ends.
  const NAME = /^[^\x00-\x1f\x7f]{1,40}$/;

  function element(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes || {})) {
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (value !== null && value !== undefined && value !== false) node.setAttribute(key, value);
    }
    node.append(...children.filter((c) => c !== null && c !== undefined));
    return node;
  }

  function api(path) {
    return new URL(path, window.location.origin).toString();
  }

  function playUrl(secret) {
    const url = new URL(window.location.href);
    url.hash = "join=" + secret;
    return url.toString();
  }

  function recall(key) {
    try {
      return JSON.parse(window.sessionStorage.getItem(key) || "null");
    } catch (error) {
      return null;
    }
  }

  function remember(key, value) {
    try {
      window.sessionStorage.setItem(key, JSON.stringify(value));
    } catch (error) {
      // (storage full or refused: the page works on, it only forgets on reload)
    }
  }

  /** The name a seat has until its person names it: "Player 2", "Heuristic bot 3" (seats from 1). */
  function defaultName(kind, seat) {
    if (kind === "person") return `Player ${seat + 1}`;
    return `${kind.charAt(0).toUpperCase()}${kind.slice(1)} bot ${seat + 1}`;
  }

  // --- the links of a new table ----------------------------------------------------------------------

  function linksPanel(answer, secret) {
    const list = element("ul", { class: "friends-links" });
    for (const seat of answer.seats) {
      if (!seat.secret) {
        list.append(element("li", { "data-seat": String(seat.seat), text: `${seat.name}: a bot, it plays at once` }));
        continue;
      }
      const yours = seat.secret === secret;
      const title = yours ? `${seat.name} (you)` : seat.name;
      list.append(linkItem(title, playUrl(seat.secret), seat.seat));
    }
    list.append(linkItem("Spectators (anyone with this link watches, and sees no hand)", playUrl(answer.spectators.secret), "spectators"));
    return element(
      "div",
      { class: "friends-share" },
      element("p", {
        text:
          "Send each friend the link of their seat: opening it, they sit there and give their name. " +
          "Keep yours: it is how you come back.",
      }),
      list,
    );
  }

  function linkItem(label, url, seat) {
    const copy = element("button", {
      type: "button",
      class: "friends-copy",
      text: "Copy",
      "aria-label": `Copy the link: ${label}`,
      onclick: () => navigator.clipboard && navigator.clipboard.writeText(url),
    });
    return element(
      "li",
      { "data-seat": String(seat) },
      element("span", { class: "friends-link-title", text: label + ": " }),
      element("a", { href: url, class: "friends-link", target: "_self", text: url }),
      " ",
      copy,
    );
  }

  // --- creating a table -------------------------------------------------------------------------------

  async function setUpForm(root, note) {
    let presets;
    try {
      // The server answers {"server": true, ...}; the docs site on its own has the same file with false.
      const response = await fetch(api("/api/server.json"), { headers: { Accept: "application/json" } });
      if (!response.ok) throw new Error(String(response.status));
      presets = await response.json();
      if (presets.server !== true) throw new Error("no server");
    } catch (error) {
      root.dataset.state = "offline";
      note.textContent =
        "Playing with friends needs a cucumber_rules server, and this page was not served by one. " +
        "Start one (pip install \".[cli,server]\"; cucumber-rules serve --site site) and open its Play page.";
      root.append(note);
      return;
    }
    const preset = element("select", { name: "preset" });
    for (const p of presets.presets) {
      preset.append(
        element("option", { value: p.name, "data-min": p.min, "data-max": p.max, selected: p.name === "agurk" }, p.title),
      );
    }
    const seats = element("div", { class: "friends-seats" });
    const count = element("input", { name: "players", type: "number", value: "3", min: "2", max: "7", required: true });
    const kinds = presets.bots.filter((k) => k !== "person");
    const drawSeats = () => {
      const option = preset.selectedOptions[0];
      count.min = option.dataset.min;
      count.max = option.dataset.max;
      const n = Math.max(Number(option.dataset.min), Math.min(Number(option.dataset.max), Number(count.value) || 0));
      count.value = String(n);
      const before = Array.from(seats.querySelectorAll("select")).map((s) => s.value);
      seats.replaceChildren();
      for (let i = 0; i < n; i += 1) {
        const kind = element("select", { name: `seat${i}` });
        kind.append(element("option", { value: "person" }, "a person"));
        for (const k of kinds) kind.append(element("option", { value: k }, `${k} bot`));
        kind.value = before[i] || (i < 2 ? "person" : kinds[0] || "person");
        seats.append(element("label", {}, `Player ${i + 1} `, kind));
      }
    };
    preset.addEventListener("change", drawSeats);
    count.addEventListener("change", drawSeats);
    const name = element("input", { name: "name", type: "text", maxlength: "40", placeholder: "Player 1" });
    const submit = element("button", { type: "submit", class: "md-button md-button--primary" }, "Create the table");
    const form = element(
      "form",
      { class: "live-play-setup friends-setup" },
      element("label", {}, "Game ", preset),
      element("label", {}, "Players ", count),
      element("label", {}, "Your name ", name),
      seats,
      submit,
    );
    drawSeats();
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      note.textContent = "";
      const chosen = Array.from(seats.querySelectorAll("select")).map((s) => s.value);
      const mine = chosen.indexOf("person"); // the creator sits in the first person's seat
      const given = name.value.trim();
      if (given && !NAME.test(given)) {
        note.textContent = "A name is 1 to 40 characters, without control characters.";
        name.focus();
        return;
      }
      const names = chosen.map((kind, i) => (i === mine && given ? given : defaultName(kind, i)));
      submit.disabled = true;
      try {
        const response = await fetch(api("/api/tables"), {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ preset: preset.value, seats: chosen, names }),
        });
        const answer = await response.json();
        if (!response.ok) throw new Error(answer.message || String(response.status));
        const seat = answer.seats.find((s) => s.secret);
        const secret = seat ? seat.secret : answer.spectators.secret;
        remember(CREATED, { ...answer, mine: secret });
        if (seat && given) remember(NAMED + secret, given);
        window.location.hash = "join=" + secret;
      } catch (error) {
        note.textContent = "The table could not be created: " + String(error.message || error);
      } finally {
        submit.disabled = false;
      }
    });
    root.replaceChildren(form, note);
    root.dataset.state = "setup";
  }

  // --- at the table -----------------------------------------------------------------------------------

  /** What the status line says: whose turn it is, or who won; the reader is "you". */
  function describeTurn(view, name) {
    if (view.to_act === null) {
      const others = view.winners.filter((s) => s !== view.seat).map(name);
      if (others.length < view.winners.length) {
        return others.length ? `The match is over: you and ${others.join(" and ")} share the win.` : "The match is over: you won!";
      }
      return `The match is over: ${others.join(" and ")} ${others.length > 1 ? "share the win" : "won"}.`;
    }
    if (view.to_act === -1) return "Dealing…";
    if (view.seat !== null && view.to_act === view.seat) return view.legal.length ? "Your turn: click a card you may play." : "Your turn.";
    return `${name(view.to_act)} to play.`;
  }

  function moveLabel(move) {
    if (move.type === "play") return `Play ${move.card}`;
    if (move.type === "revive") return move.accept ? "Buy back in" : "Stay out";
    return move.type;
  }

  /** Sit at the table of a link's `secret`; `page.cleanups` gets what leaving the page must undo. */
  function join(root, secret, note, page) {
    root.dataset.state = "connecting";
    const created = recall(CREATED);
    const share =
      created && [...created.seats.map((s) => s.secret), created.spectators.secret].includes(secret)
        ? linksPanel(created, created.mine)
        : null;
    // The sample picture of a match against bots must not pass for this table: it goes while a table shows.
    const samples = Array.from(document.querySelectorAll("#live-play .live-static"));
    samples.forEach((node) => (node.hidden = true));
    page.cleanups.push(() => samples.forEach((node) => (node.hidden = false)));

    const heading = element("h3", { class: "friends-heading", id: "your-table", tabindex: "-1", text: "Your table" });
    const role = element("p", { class: "friends-role" });
    const nameInput = element("input", { name: "name", type: "text", maxlength: "40", required: true });
    const nameForm = element(
      "form",
      { class: "live-play-setup friends-name", hidden: true },
      element("label", {}, "Your name ", nameInput),
      element("button", { type: "submit", class: "md-button md-button--primary" }, "Use this name"),
    );
    const seatsLine = element("p", { class: "friends-seats-line" });
    const status = element("p", { class: "live-play-status friends-status", role: "status" });
    const table = element("div", { class: "live-play-table friends-table", role: "img", "aria-label": "The table" });
    const moves = element("div", { class: "live-play-moves friends-moves" });
    const errors = element("p", { class: "friends-error", role: "alert" });
    const lastBody = element("div", { class: "live-play-last-body" });
    const last = element(
      "section",
      { class: "live-play-last friends-last", hidden: true },
      element("h4", { class: "live-play-side-title", text: "Last trick" }),
      lastBody,
    );
    const log = element("ol", { class: "live-play-log friends-log", reversed: true, "aria-live": "polite" });
    const logBox = element(
      "details",
      { class: "live-play-log-box", open: true },
      element("summary", { class: "live-play-side-title", text: "What happened (newest first)" }),
      log,
    );
    if (window.matchMedia && !window.matchMedia("(min-width: 60em)").matches) logBox.open = false;
    const board = element(
      "div",
      { class: "live-play-board friends-board" },
      element("div", { class: "live-play-main" }, status, table, moves, errors),
      element("div", { class: "live-play-side" }, last, logBox),
    );
    const record = element("button", { type: "button", class: "md-button friends-record", hidden: true }, "Download the match record");
    const leave = element("a", { href: window.location.pathname, class: "friends-leave", target: "_self" }, "Leave this table");
    root.replaceChildren(
      ...[heading, role, nameForm, share, seatsLine, board, record, element("p", {}, leave), note].filter(Boolean),
    );

    let socket = null;
    let at = -1;
    let seats = null;
    let seat; // the link's seat (null for a spectator), once the server has said
    let view = null;
    let retry = 0;
    let closedForGood = false;
    let rejoining = false; // closed to join again at once, with a new name
    let reconnecting = null;
    let arrived = false; // the page went to the table once (at its first view)
    const kept = recall(LOGGED + secret) || { at: -1, lines: [] };
    page.cleanups.push(() => {
      closedForGood = true; // no reconnecting once the page is left
      window.clearTimeout(reconnecting);
      if (socket) socket.close(1000, "left the page");
    });

    const name = (s) => (seats && seats[s] ? seats[s].name : `Player ${s + 1}`);
    const send = (message) => {
      if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    };
    const act = (move) => {
      moves.querySelectorAll("button").forEach((b) => (b.disabled = true));
      errors.textContent = "";
      send({ type: "act", at, action: { format: view.format, kind: "action", ...move } });
    };

    /** Lines of the log, newest first (kept for the tab: a reload shows them again). */
    function addToLog(lines) {
      for (const line of lines) log.prepend(element("li", { text: line }));
    }
    addToLog(kept.lines);

    nameForm.addEventListener("submit", (event) => {
      event.preventDefault();
      const given = nameInput.value.trim();
      if (!NAME.test(given)) {
        errors.textContent = "A name is 1 to 40 characters, without control characters.";
        nameInput.focus();
        return;
      }
      errors.textContent = "";
      remember(NAMED + secret, given);
      nameForm.hidden = true;
      rejoining = true; // the name goes with a join: this connection closes, and the next one joins with it
      if (socket) socket.close(1000, "joining again with a name");
    });

    record.addEventListener("click", async () => {
      const response = await fetch(api("/api/record"), { headers: { Authorization: "Bearer " + secret } });
      if (!response.ok) {
        errors.textContent = "The record is not ready: " + ((await response.json()).message || response.status);
        return;
      }
      const blob = new Blob([await response.text()], { type: "application/json" });
      const link = element("a", { href: URL.createObjectURL(blob), download: "match.cucumber.json" });
      document.body.append(link);
      link.click();
      link.remove();
    });

    function describeSeats(message) {
      seats = message.seats;
      seat = message.seat;
      root.dataset.seat = seat === null ? "spectator" : String(seat);
      const watching = message.spectators ? " · spectators watching" : "";
      seatsLine.textContent =
        "At the table: " +
        seats
          .map((s, i) => `${s.name}${i === seat ? " (you)" : ""}${s.bot ? " (bot)" : s.online ? "" : " (away)"}`)
          .join(" · ") +
        watching;
      if (seat === null) {
        heading.textContent = "Watching a table";
        role.textContent =
          "You are a spectator: you see every card as it is played, the tricks and the scores, and no one's hand.";
      } else {
        heading.textContent = "Your table";
        role.textContent = `You play as ${seats[seat].name}.`;
        if (!recall(NAMED + secret) && nameForm.hidden && document.activeElement !== nameInput) {
          nameInput.value = seats[seat].name;
          nameForm.hidden = false;
        }
      }
      if (view) status.textContent = describeTurn(view, name);
    }

    function drawLast(trick) {
      if (!trick) {
        last.hidden = true;
        return;
      }
      const picture = element("div", { class: "live-play-trick-picture" });
      picture.innerHTML = trick.picture; // drawn by the server (cucumber_rules.render): every card, who took it
      const who = trick.taker === seat ? "You" : name(trick.taker);
      lastBody.replaceChildren(picture, element("p", { class: "live-play-trick-caption", text: `${who} took trick ${trick.number}.` }));
      last.hidden = false;
    }

    function draw(message) {
      view = message.view;
      at = message.at;
      root.dataset.at = String(at);
      root.dataset.round = String(view.round_number);
      root.dataset.results = String(view.results.length);
      root.dataset.trick = String(view.trick.length);
      root.dataset.seat = view.seat === null ? "spectator" : String(view.seat);
      if (message.picture) {
        table.innerHTML = message.picture; // drawn by the server from this seat's view
        const svg = table.querySelector("svg");
        if (svg) table.setAttribute("aria-label", svg.getAttribute("aria-label") || "The table");
      }
      status.textContent = describeTurn(view, name);
      moves.replaceChildren();
      for (const move of view.legal) {
        const button = element("button", { type: "button", class: "md-button live-move", "data-card": move.card || null }, moveLabel(move));
        button.addEventListener("click", () => act(move));
        moves.append(button);
      }
      for (const card of table.querySelectorAll(".cr-legal")) {
        const move = view.legal.find((m) => m.type === "play" && m.card === card.dataset.card);
        if (!move) continue;
        card.style.cursor = "pointer";
        card.addEventListener("click", () => act(move));
      }
      if ("last_trick" in message) drawLast(message.last_trick);
      if (message.said && at > kept.at) {
        if (kept.at < 0 && at > 1) addToLog([`(You came in after ${at - 1} actions: the log starts here.)`]);
        addToLog(message.said);
        kept.at = at;
        kept.lines = [...kept.lines, ...message.said].slice(-KEPT_LINES);
        remember(LOGGED + secret, kept);
      }
      const over = view.to_act === null;
      record.hidden = !over;
      root.dataset.state = over ? "over" : "playing";
      if (!arrived) {
        // The link opened the page at its top: go to the table (below the bots' part of the page).
        arrived = true;
        heading.scrollIntoView({ block: "start" });
        heading.focus({ preventScroll: true });
      }
    }

    function connect() {
      const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
      socket = new WebSocket(`${scheme}//${window.location.host}/api/play`);
      socket.addEventListener("open", () => {
        retry = 0;
        note.textContent = "";
        const given = recall(NAMED + secret);
        socket.send(JSON.stringify({ type: "join", link: secret, pictures: true, ...(given ? { name: given } : {}) }));
      });
      socket.addEventListener("message", (event) => {
        const message = JSON.parse(event.data);
        if (message.type === "view") draw(message);
        else if (message.type === "table") describeSeats(message);
        else if (message.type === "error") {
          const error = message.error;
          if (error.code === "unknown-link") closedForGood = true;
          errors.textContent = error.message;
          if (view) moves.querySelectorAll("button").forEach((b) => (b.disabled = false));
        }
      });
      socket.addEventListener("close", () => {
        if (!page.alive) return;
        if (closedForGood) {
          root.dataset.state = "offline";
          note.textContent = "This link names no seat of any table on this server.";
          return;
        }
        if (rejoining) {
          rejoining = false;
          connect();
          return;
        }
        root.dataset.state = "connecting";
        note.textContent = "The connection was lost; reconnecting…";
        retry = Math.min(retry + 1, 6);
        reconnecting = window.setTimeout(connect, 500 * 2 ** (retry - 1));
      });
    }
    connect();
  }

  let shown = null; // the page set up now: {alive, cleanups}

  /** Undo what the page that was shown set up: its table's connection, its listeners. */
  function unmount(page) {
    page.alive = false;
    for (const cleanup of page.cleanups.splice(0)) {
      try {
        cleanup();
      } catch (error) {
        console.error(error);
      }
    }
  }

  function start() {
    if (shown) unmount(shown);
    shown = null;
    const root = document.getElementById("friends");
    if (!root) return;
    const page = { alive: true, cleanups: [] };
    shown = page;
    const note = element("p", { class: "friends-note", role: "status" });
    const route = () => {
      const found = JOIN.exec(window.location.hash);
      if (found) join(root, found[1], note, page);
      else setUpForm(root, note);
    };
    let joined = JOIN.test(window.location.hash);
    const changed = () => {
      const joining = JOIN.test(window.location.hash);
      if (joining || joined) window.location.reload(); // another seat, or leaving one (not a heading's anchor)
      joined = joining;
    };
    window.addEventListener("hashchange", changed);
    page.cleanups.push(() => window.removeEventListener("hashchange", changed));
    route();
  }

  // The theme's `document$` tells of each page shown: the first, and each one instant navigation brings.
  const pages = globalThis.document$;
  if (pages && typeof pages.subscribe === "function") pages.subscribe(() => start());
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
