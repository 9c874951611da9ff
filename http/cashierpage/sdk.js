// The widget SDK: include /libs/v2/cashier.umd.js?apiKey=pk_... on the
// merchant's page and call init(container, options). It creates the order
// from the browser (the cashier must list the page's origin), then shows
// the hosted cashier page in an iframe inside container and reports the
// outcome to options.callback. Messages go both ways only between this
// page and the service's origin, checked on every message.
(function (root) {
  "use strict";
  var NAME = "__CASHIER_GLOBAL__";
  var script = document.currentScript;
  var src = new URL(script ? script.src : "", location.href);
  var service = src.origin;
  var apiKey = src.searchParams.get("apiKey") || "";
  var ERRORS = { PARAMETER: 1001, CASHIER: 1002, SIGNATURE: 1003, EXPIRED: 1004, NETWORK: 1005 };
  var CHAINS = { TRON: "TRON", ETH: "ETH", ARB: "ARB", "1": "ETH", "42161": "ARB", ETHEREUM: "ETH", ARBITRUM: "ARB" };

  function fail(options, code, message) {
    var err = { type: "error", code: code, message: message };
    if (options && typeof options.onError === "function") options.onError(err);
    if (options && typeof options.callback === "function") options.callback(err);
    if (root.console) root.console.error("[" + NAME + "] " + code + " " + message);
    return err;
  }

  // The resumeTokens of the orders this browser created with the
  // merchant's numbers; storage may be off (private modes), then a reload
  // is refused instead of handing the order out.
  function stored(key) {
    try { return root.localStorage.getItem(key) || ""; } catch (e) { return ""; }
  }
  function store(key, value) {
    try { root.localStorage.setItem(key, value); } catch (e) { /* storage off */ }
  }

  function init(container, options) {
    options = options || {};
    var el = typeof container === "string" ? document.querySelector(container) : container;
    if (!el || el.nodeType !== 1) return fail(options, ERRORS.PARAMETER, "container must be an element or a selector of one");
    // The script URL's apiKey, else the one in the options (the
    // provider's integration pages pass it there).
    var key = apiKey || (options.apiKey === undefined || options.apiKey === null ? "" : String(options.apiKey));
    if (!key) return fail(options, ERRORS.PARAMETER, "neither the script URL nor the options carry an apiKey");
    if (!options.cashierId) return fail(options, ERRORS.PARAMETER, "cashierId is required");
    if (options.callback !== undefined && typeof options.callback !== "function") return fail(options, ERRORS.PARAMETER, "callback must be a function");
    var amount = options.amount === undefined ? "" : String(options.amount);
    if (!/^\d+(\.\d+)?$/.test(amount)) return fail(options, ERRORS.PARAMETER, "amount must be a decimal string such as \"100.00\"");
    // chainId (currency, or symbol) fixes the network (token); without
    // it the customer chooses on the page, defaultChainId
    // (defaultCurrency) preselected.
    var chain = options.chainId ? CHAINS[String(options.chainId).toUpperCase()] : "";
    var defaultChain = options.defaultChainId ? CHAINS[String(options.defaultChainId).toUpperCase()] : "";
    if (chain === undefined || defaultChain === undefined) return fail(options, ERRORS.PARAMETER, "chainId must be TRON, ETH or ARB");
    var symbol = String(options.currency || options.symbol || "").toUpperCase();
    var defaultSymbol = String(options.defaultCurrency || "").toUpperCase();
    var lang = options.lang || "en-US";
    if (lang !== "en-US" && lang !== "zh-CN") return fail(options, ERRORS.PARAMETER, "lang must be en-US or zh-CN");
    var theme = options.theme || "light";
    if (theme !== "light" && theme !== "dark") return fail(options, ERRORS.PARAMETER, "theme must be light or dark");
    var method = options.defaultPaymentMethod || "";
    if (method && method !== "connect_wallet" && method !== "scan") return fail(options, ERRORS.PARAMETER, "defaultPaymentMethod must be connect_wallet or scan");
    var hide = options.hidePaymentMethods || [];
    if (!Array.isArray(hide)) return fail(options, ERRORS.PARAMETER, "hidePaymentMethods must be an array");

    var handle = { orderNo: options.orderNo || "", destroy: destroy };
    var frame = null, done = false;

    function onMessage(ev) {
      // Only the service's page in this very iframe is listened to.
      if (ev.origin !== service || !frame || ev.source !== frame.contentWindow) return;
      var m = ev.data;
      if (!m || m.source !== "cashier") return;
      if (m.type === "ready") {
        frame.contentWindow.postMessage({ source: "cashier-sdk", type: "init", data: { lang: lang, theme: theme,
          defaultPaymentMethod: method, hidePaymentMethods: hide } }, service);
        return;
      }
      var d = m.data || {};
      if (m.type === "size") {
        // The page's own height: the iframe fits it (within bounds).
        var h = Number(d.height);
        if (isFinite(h) && h > 0) frame.style.height = Math.min(Math.max(Math.ceil(h), 200), 10000) + "px";
        return;
      }
      if (m.type === "scroll") {
        var top = Number(d.top);
        if (isFinite(top) && top >= 0) {
          var y = frame.getBoundingClientRect().top + (root.scrollY || root.pageYOffset || 0) + Math.min(top, frame.offsetHeight);
          root.scrollTo({ top: Math.max(0, Math.floor(y)), behavior: "auto" });
        }
        return;
      }
      if (done) return;
      if (m.type === "finish") {
        done = true;
        if (options.callback) options.callback({ type: "finish", data: { orderNo: d.orderNo, txId: d.txId, status: d.status } });
        if (options.redirectUrl && /^https?:\/\//i.test(options.redirectUrl)) setTimeout(function () { location.assign(options.redirectUrl); }, 3000);
      } else if (m.type === "cancel") {
        done = true;
        if (options.callback) options.callback({ type: "cancel" });
      } else if (m.type === "expired") {
        done = true;
        fail(options, ERRORS.EXPIRED, "the order expired");
      }
    }

    function destroy() {
      root.removeEventListener("message", onMessage);
      if (frame && frame.parentNode) frame.parentNode.removeChild(frame);
      frame = null;
    }

    var body = { apiKey: key, cashierId: String(options.cashierId), amount: amount };
    if (chain) body.chainId = chain; else if (defaultChain) body.defaultChainId = defaultChain;
    if (symbol) body.symbol = symbol; else if (defaultSymbol) body.defaultCurrency = defaultSymbol;
    if (options.orderNo) body.orderNo = String(options.orderNo);
    // A merchant's own orderNo needs the orderToken its server signed;
    // without one the service numbers the order. The order's resumeToken,
    // kept in this browser only, gets the same order again on a reload.
    var orderNo = body.orderNo || "";
    if (options.orderToken) {
      body.orderToken = String(options.orderToken);
      orderNo = orderNo || new URLSearchParams(body.orderToken).get("orderNo") || "";
    }
    var resumeKey = orderNo ? "cashier-order:" + service + ":" + body.cashierId + ":" + orderNo : "";
    var resume = resumeKey ? stored(resumeKey) : "";
    if (resume) body.resumeToken = resume;
    if (options.redirectUrl) body.redirectUrl = String(options.redirectUrl);
    if (options.custNo) body.custNo = String(options.custNo);
    // A CORS simple request: text/plain, no custom header, no cookies.
    fetch(service + "/sdk/v2/order", { method: "POST", headers: { "Content-Type": "text/plain" }, body: JSON.stringify(body),
      credentials: "omit", mode: "cors", referrerPolicy: "origin" })
      .then(function (r) { return r.json(); })
      .then(function (res) {
        if (!res || !res.success) {
          fail(options, (res && res.code) || ERRORS.NETWORK, (res && res.message) || "the order could not be created");
          return;
        }
        handle.orderNo = res.data.orderNo;
        if (resumeKey && res.data.resumeToken) store(resumeKey, res.data.resumeToken);
        var u = new URL(res.data.embedUrl);
        u.searchParams.set("lang", lang);
        u.searchParams.set("theme", theme);
        if (method) u.searchParams.set("method", method);
        if (hide.length) u.searchParams.set("hide", hide.join(","));
        frame = document.createElement("iframe");
        frame.src = u.toString();
        frame.title = "Cashier";
        frame.setAttribute("allow", "clipboard-write");
        frame.style.width = "100%";
        frame.style.height = "640px"; // until the page reports its own height
        frame.style.border = "0";
        root.addEventListener("message", onMessage);
        el.textContent = "";
        el.appendChild(frame);
      })
      .catch(function () {
        // A refused origin gets no CORS headers, so it lands here too.
        fail(options, ERRORS.NETWORK, "the cashier service could not be reached, or refused this page's origin");
      });
    return handle;
  }

  root[NAME] = { init: init, ERRORS: ERRORS, version: "2" };
})(window);
