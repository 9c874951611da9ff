// The hosted cashier page: keeps the order's state live by polling its
// status endpoint (same capability URL as the page), counts down to expiry,
// copies the address, cancels on request, returns to the merchant once
// paid, and speaks English or Chinese (browser language, switchable).
(function () {
  "use strict";
  var root = document.getElementById("cashier");
  if (!root) return;
  var texts = JSON.parse(document.getElementById("i18n").textContent);
  var POLL_MS = 2000, REDIRECT_MS = 3000;
  var lang = pickLang();
  var status = null, skew = 0, redirectTimer = null, pollTimer = null;
  // Inside the SDK's iframe: the merchant's page, at the origin the server
  // checked against the cashier's allowed origins, is told of the state and
  // does the redirect itself.
  var parentOrigin = root.getAttribute("data-parent-origin");
  var embedded = !!parentOrigin && window.parent !== window;
  var told = {};

  function notifyParent(s) {
    var key = s.state + "/" + s.status;
    if (told[key]) return;
    told[key] = true;
    var msg = { source: "cashier", type: "state", data: { orderNo: $("order-no").textContent, state: s.state, status: s.status,
      txId: s.txId || "", note: s.note || "" } };
    if (s.state === "paid") msg.type = "finish";
    if (s.state === "cancelled") msg.type = "cancel";
    if (s.state === "expired" || s.state === "late") msg.type = "expired";
    window.parent.postMessage(msg, parentOrigin);
  }

  // Inside the SDK's iframe the page tells the embedding script its
  // height, so the iframe fits its content (no inner scrolling on a
  // phone), and asks it to bring a part of the page into view.
  var sentHeight = 0;
  function tellSize() {
    if (!embedded) return;
    var h = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (h === sentHeight) return;
    sentHeight = h;
    root.setAttribute("data-height", String(h));
    window.parent.postMessage({ source: "cashier", type: "size", data: { height: h } }, parentOrigin);
  }

  // showNewState brings the amount and what to send into view: after a
  // choice of network the page is rendered anew, and the customer's
  // screen may still be where the list of choices was.
  function showNewState() {
    var el = document.querySelector("#cashier .amount");
    if (!el) return;
    if (embedded) {
      tellSize();
      window.parent.postMessage({ source: "cashier", type: "scroll", data: { top: Math.max(0, Math.floor(el.getBoundingClientRect().top + window.scrollY)) } }, parentOrigin);
    } else {
      el.scrollIntoView({ block: "start" });
    }
    // Where the amount and its "Send exactly…" line lie in the page,
    // for whoever checks they came into view.
    var detail = $("state-detail").getBoundingClientRect();
    root.setAttribute("data-amount-top", String(Math.floor(el.getBoundingClientRect().top + window.scrollY)));
    root.setAttribute("data-detail-bottom", String(Math.ceil(detail.bottom + window.scrollY)));
    root.setAttribute("data-shown", "amount");
  }

  function pickLang() {
    var q = new URLSearchParams(location.search).get("lang");
    var stored = null;
    try { stored = localStorage.getItem("cashier.lang"); } catch (e) { /* storage may be off */ }
    var prefs = [q, stored].concat(navigator.languages || [navigator.language]);
    for (var i = 0; i < prefs.length; i++) {
      var l = (prefs[i] || "").toLowerCase();
      if (l.indexOf("zh") === 0) return "zh";
      if (l.indexOf("en") === 0) return "en";
    }
    return "en";
  }

  function t(key, vars) {
    var s = (texts[lang] && texts[lang][key]) || texts.en[key] || key;
    return s.replace(/\{(\w+)\}/g, function (m, k) { return vars && vars[k] !== undefined ? String(vars[k]) : m; });
  }

  function $(id) { return document.getElementById(id); }
  window.CashierText = t;

  function applyLang() {
    document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
    document.title = t("title");
    var els = document.querySelectorAll("[data-i18n]");
    for (var i = 0; i < els.length; i++) els[i].textContent = t(els[i].getAttribute("data-i18n"));
    var alts = document.querySelectorAll("[data-i18n-alt]");
    for (var j = 0; j < alts.length; j++) alts[j].alt = t(alts[j].getAttribute("data-i18n-alt"));
    $("lang").textContent = t("lang.switch");
    choiceTexts();
    if (status) render(status);
  }

  function vars(s) {
    return { amount: s.amount, symbol: s.symbol, network: root.getAttribute("data-network"), paid: s.paidAmount,
      remaining: s.remaining, due: s.due, n: s.confirmations, N: s.required };
  }

  var FINAL = ["paid", "expired", "late", "cancelled"];
  // Choosing the network and token: the server renders the choices; once
  // chosen (here or elsewhere) the page is rendered anew for its address.
  var renderedChoosing = root.getAttribute("data-state") === "choose", changing = false;
  var justChosen = false;
  try {
    justChosen = sessionStorage.getItem("cashier.chosen") === location.pathname;
    sessionStorage.removeItem("cashier.chosen");
  } catch (e) { /* storage may be off */ }

  function choiceTexts() {
    var els = document.querySelectorAll("#choose .choice");
    for (var i = 0; i < els.length; i++) {
      var b = els[i], v = { symbol: b.getAttribute("data-symbol"), network: b.getAttribute("data-network"), fee: b.getAttribute("data-fee"),
        feeSymbol: b.getAttribute("data-fee-symbol"), min: b.getAttribute("data-min") };
      b.querySelector(".choice-name").textContent = t("choose.option", v);
      b.querySelector(".choice-fee").textContent = t("choose.fee", v);
    }
  }

  function choose(b) {
    fetch(root.getAttribute("data-choose-url"), { method: "POST", credentials: "omit", referrerPolicy: "no-referrer",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ chainId: b.getAttribute("data-chain"), symbol: b.getAttribute("data-symbol") }) })
      .then(function (r) { return r.json().then(function (body) { return { ok: r.ok, body: body }; }); })
      .then(function (res) {
        if (!res.ok) {
          $("message").hidden = false;
          $("message").textContent = t("error.choose", { message: res.body.message || "" });
          return;
        }
        try { sessionStorage.setItem("cashier.chosen", location.pathname); } catch (e) { /* storage may be off */ }
        location.reload();
      });
  }

  function render(s) {
    status = s;
    var v = vars(s);
    if (renderedChoosing && !s.choosing) { location.reload(); return; }
    if ($("choose")) $("choose").hidden = !(s.choosing || (changing && s.canChange));
    $("change").hidden = !s.canChange || changing;
    root.setAttribute("data-state", s.state);
    root.setAttribute("data-status", s.status);
    root.setAttribute("data-note", s.note || "");
    $("state").className = "state state-" + s.state + (s.note ? " note-" + s.note : "");
    $("state-title").textContent = t(s.titleKey, v);
    $("state-detail").textContent = t(s.detailKey, v);
    // Paying once: the amount, the QR code and the wallet link ask for
    // what is still due; with nothing due the box gives way to progress.
    var partly = s.payable && s.due !== s.amount;
    var label = s.state === "paid" ? "pay.paid" : partly ? "pay.due" : "pay";
    $("amount").textContent = s.payable ? s.due : s.amount;
    $("amount-label").setAttribute("data-i18n", label);
    $("amount-label").textContent = t(label);
    $("amount-of").hidden = !partly;
    $("amount-of").textContent = t("amount.of", v);
    $("pay-box").hidden = !s.payable || (changing && s.canChange);
    if (s.qr && $("qr").getAttribute("src") !== s.qr) $("qr").setAttribute("src", s.qr);
    $("qr").hidden = !s.qr;
    if (s.walletUrl) $("open-wallet").setAttribute("href", s.walletUrl);
    $("open-wallet").hidden = !s.walletUrl;
    var progress = $("progress");
    progress.hidden = s.payable || !(s.state === "seen" || s.state === "confirming");
    progress.max = s.required;
    progress.value = Math.min(s.confirmations, s.required);
    $("countdown").hidden = !(s.state === "waiting" || s.state === "underpaid" || s.state === "choose");
    $("cancel").hidden = !s.canCancel;
    var final = FINAL.indexOf(s.state) >= 0;
    if (s.backUrl) $("back").setAttribute("href", s.backUrl);
    $("back").hidden = !(final && s.backUrl);
    if (window.CashierWallet) window.CashierWallet.update(s);
    if ($("wallet-status").getAttribute("data-key")) $("wallet-status").textContent = t($("wallet-status").getAttribute("data-key"), { hash: root.getAttribute("data-wallet-tx") || "" });
    if (embedded) notifyParent(s);
    if (justChosen) { justChosen = false; setTimeout(showNewState, 0); }
    var list = $("payment-list");
    list.textContent = "";
    s.payments.forEach(function (p) {
      var li = document.createElement("li");
      var code = document.createElement("code");
      code.textContent = p.txId;
      var st = p.effect === "WRONG_TOKEN" || p.effect === "NATIVE" ? t("payment." + p.effect) : t("payment." + p.status, { n: Math.min(p.confirmations, s.required), N: s.required });
      li.appendChild(code);
      li.appendChild(document.createTextNode(t("payment.line", { amount: p.amount, symbol: p.symbol, status: st })));
      li.setAttribute("data-status", p.status);
      list.appendChild(li);
    });
    $("payments").hidden = s.payments.length === 0;
    tick();
    // Whether the layout fits the screen's width (no sideways scrolling).
    root.setAttribute("data-fits", document.documentElement.scrollWidth <= window.innerWidth ? "yes" : "no");
    if (!embedded && s.state === "paid" && s.redirectUrl && /^https?:\/\//i.test(s.redirectUrl) && !redirectTimer) {
      $("message").hidden = false;
      $("message").className = "message note";
      $("message").textContent = t("redirecting");
      redirectTimer = setTimeout(function () { location.assign(s.redirectUrl); }, REDIRECT_MS);
    }
  }

  function final(s) { return s.state === "paid" || s.state === "cancelled"; }

  function tick() {
    if (!status) return;
    var left = Math.max(0, status.expireTime - (Date.now() + skew));
    var sec = Math.floor(left / 1000), h = Math.floor(sec / 3600), m = Math.floor(sec / 60) % 60, x = sec % 60;
    var time = (h > 0 ? h + ":" + pad(m) : m) + ":" + pad(x);
    $("countdown").textContent = t("countdown", { time: time });
  }

  function pad(n) { return n < 10 ? "0" + n : String(n); }

  function poll() {
    var sent = Date.now();
    fetch(root.getAttribute("data-status-url"), { cache: "no-store", credentials: "omit", referrerPolicy: "no-referrer" })
      .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.json(); })
      .then(function (s) {
        skew = s.serverTime - (sent + Date.now()) / 2;
        if ($("message").textContent === t("error.offline")) $("message").hidden = true;
        render(s);
        if (!final(s)) pollTimer = setTimeout(poll, POLL_MS);
      })
      .catch(function () {
        $("message").hidden = false;
        $("message").textContent = t("error.offline");
        pollTimer = setTimeout(poll, POLL_MS * 2);
      });
  }

  $("lang").hidden = false;
  $("lang").addEventListener("click", function () {
    lang = lang === "zh" ? "en" : "zh";
    try { localStorage.setItem("cashier.lang", lang); } catch (e) { /* storage may be off */ }
    applyLang();
  });

  var copy = $("copy");
  if (navigator.clipboard) {
    copy.hidden = false;
    copy.addEventListener("click", function () {
      navigator.clipboard.writeText($("address").textContent).then(function () {
        copy.textContent = t("copied");
        setTimeout(function () { copy.textContent = t("copy"); }, 1500);
      });
    });
  }

  $("cancel").addEventListener("click", function () {
    if (!window.confirm(t("cancel.confirm"))) return;
    fetch(root.getAttribute("data-cancel-url"), { method: "POST", credentials: "omit", referrerPolicy: "no-referrer" })
      .then(function (r) { return r.json().then(function (b) { return { ok: r.ok, body: b }; }); })
      .then(function (res) {
        if (!res.ok) {
          $("message").hidden = false;
          $("message").textContent = t("error.cancel", { message: res.body.message || "" });
          return;
        }
        render(res.body);
      });
  });

  var choices = document.querySelectorAll("#choose .choice");
  for (var c = 0; c < choices.length; c++) choices[c].addEventListener("click", function (ev) { choose(ev.currentTarget); });
  $("change").addEventListener("click", function () {
    changing = true;
    if (status) render(status);
  });

  if (embedded) {
    // Only the merchant's page that embeds us, at the origin the server
    // checked, is listened to.
    window.addEventListener("message", function (ev) {
      if (ev.origin !== parentOrigin || ev.source !== window.parent) return;
      var m = ev.data;
      if (!m || m.source !== "cashier-sdk" || m.type !== "init") return;
      var d = m.data || {};
      if (d.lang === "zh-CN" || d.lang === "en-US") lang = d.lang === "zh-CN" ? "zh" : "en";
      if (d.theme === "dark" || d.theme === "light") document.body.className = "theme-" + d.theme;
      root.setAttribute("data-sdk", "init");
      applyLang();
    });
    window.parent.postMessage({ source: "cashier", type: "ready" }, parentOrigin);
    if (window.ResizeObserver) new ResizeObserver(tellSize).observe(document.documentElement);
    window.addEventListener("load", tellSize);
  }

  applyLang();
  setInterval(tick, 1000);
  poll();
})();
