// Paying from a browser wallet on the cashier page: an injected EIP-1193
// provider (window.ethereum) on Ethereum and Arbitrum, TronLink's
// window.tronWeb on TRON. The wallet is asked for exactly the amount still
// due, once; refusals and wrong chains get a message and a way back to
// scanning. cashier.js calls CashierWallet.update with every status.
(function () {
  "use strict";
  var root = document.getElementById("cashier");
  if (!root) return;
  function $(id) { return document.getElementById(id); }
  var chain = root.getAttribute("data-chain");
  var evm = chain === "ETH" || chain === "ARB";
  var status = null, sentFor = null, busy = false;
  var query = new URLSearchParams(location.search);
  var hidden = (query.get("hide") || "").split(",");
  // The SDK's defaultPaymentMethod: "scan" puts the QR code first and the
  // wallet behind a link; "connect_wallet" (with a wallet present) puts
  // the wallet first and the QR code behind "Scan instead".
  var method = query.get("method") || "";
  // hidePaymentMethods ["scan"] hides the QR code while a wallet can pay;
  // without a wallet scanning stays, the only way left.
  if (hidden.indexOf("scan") >= 0 && hidden.indexOf("connect_wallet") < 0) method = "connect_wallet";
  var noScan = hidden.indexOf("scan") >= 0;
  var walletShown = method !== "scan";

  function t(key, vars) { return window.CashierText ? window.CashierText(key, vars) : key; }

  function available() {
    if (hidden.indexOf("connect_wallet") >= 0) return false;
    return evm ? !!(window.ethereum && window.ethereum.request) : !!(window.tronWeb && window.tronWeb.contract);
  }

  // units turns a decimal text into base units (BigInt), exactly.
  function units(text, decimals) {
    var parts = String(text).split(".");
    var frac = (parts[1] || "").padEnd(decimals, "0").slice(0, decimals);
    return BigInt(parts[0] + frac);
  }

  function say(key, vars, isError) {
    var el = $("wallet-status");
    el.hidden = false;
    el.className = "hash" + (isError ? " message" : "");
    el.setAttribute("data-key", key);
    el.textContent = t(key, vars);
  }

  function failed(err) {
    busy = false;
    var code = err && (err.code !== undefined ? err.code : "");
    var msg = (err && (err.message || String(err))) || "";
    var key = "wallet.error";
    if (code === 4001 || /reject|denied|cancel/i.test(msg)) key = "wallet.refused";
    else if (code === "wrong-chain" || code === 4902) key = "wallet.chain";
    say(key, { message: msg }, true);
    root.setAttribute("data-wallet", key);
    $("connect").hidden = false;
    $("scan-instead").hidden = false; // a failing wallet always leaves a way to pay
  }

  function sent(hash) {
    busy = false;
    sentFor = status ? status.due : null;
    root.setAttribute("data-wallet", "sent");
    root.setAttribute("data-wallet-tx", hash);
    say("wallet.sent", { hash: hash });
    $("connect").hidden = true;
  }

  function payEVM(due) {
    var eth = window.ethereum;
    var want = "0x" + Number(root.getAttribute("data-evm-chain-id")).toString(16);
    var from;
    var amount = units(due, Number(root.getAttribute("data-decimals")));
    var to = root.getAttribute("data-address").toLowerCase().replace(/^0x/, "");
    var data = "0xa9059cbb" + to.padStart(64, "0") + amount.toString(16).padStart(64, "0");
    return eth.request({ method: "eth_requestAccounts" })
      .then(function (accounts) {
        if (!accounts || !accounts.length) throw { code: 4001, message: "no account" };
        from = accounts[0];
        return eth.request({ method: "eth_chainId" });
      })
      .then(function (id) {
        if (String(id).toLowerCase() === want) return null;
        say("wallet.switching", { network: root.getAttribute("data-network") });
        return eth.request({ method: "wallet_switchEthereumChain", params: [{ chainId: want }] }).catch(function (err) {
          if (!err || err.code !== 4902) throw err;
          var rpc = root.getAttribute("data-rpc-url");
          return eth.request({ method: "wallet_addEthereumChain", params: [{ chainId: want, chainName: root.getAttribute("data-network"),
            nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: rpc ? [rpc] : [] }] });
        }).then(function () {
          return eth.request({ method: "eth_chainId" }).then(function (now) {
            if (String(now).toLowerCase() !== want) throw { code: "wrong-chain", message: String(now) };
          });
        });
      })
      .then(function () {
        say("wallet.confirm", {});
        return eth.request({ method: "eth_sendTransaction", params: [{ from: from, to: root.getAttribute("data-token"), data: data, value: "0x0" }] });
      });
  }

  function payTRON(due) {
    var tw = window.tronWeb;
    var amount = units(due, Number(root.getAttribute("data-decimals")));
    return Promise.resolve(tw.ready === false && window.tronLink && window.tronLink.request ? window.tronLink.request({ method: "tron_requestAccounts" }) : null)
      .then(function () {
        if (!tw.defaultAddress || !tw.defaultAddress.base58) throw { code: 4001, message: "no account" };
        say("wallet.confirm", {});
        return tw.contract().at(root.getAttribute("data-token"));
      })
      .then(function (c) { return c.transfer(root.getAttribute("data-address"), amount.toString()).send(); })
      .then(function (res) { return typeof res === "string" ? res : (res && (res.txid || res.txID)) || ""; });
  }

  $("connect").addEventListener("click", function () {
    if (busy || !status || !status.payable) return;
    busy = true;
    $("scan-instead").hidden = true;
    root.setAttribute("data-wallet", "asking");
    say("wallet.asking", {});
    (evm ? payEVM(status.due) : payTRON(status.due)).then(sent, failed);
  });
  $("scan-instead").addEventListener("click", function () {
    $("wallet").hidden = true;
    $("pay-box").classList.remove("method-wallet");
    root.setAttribute("data-wallet", "scan");
    walletShown = false;
    if (status) window.CashierWallet.update(status);
  });
  $("use-wallet").addEventListener("click", function () {
    walletShown = true;
    root.setAttribute("data-wallet", "");
    if (status) window.CashierWallet.update(status);
  });

  window.CashierWallet = {
    update: function (s) {
      status = s;
      // A new amount due (a payment counted or dropped) may be paid again.
      if (sentFor !== null && s.due !== sentFor) { sentFor = null; $("connect").hidden = false; }
      var can = s.payable && available();
      $("wallet").hidden = !(can && walletShown);
      $("use-wallet").hidden = !(can && !walletShown);
      var first = can && walletShown && method === "connect_wallet";
      $("pay-box").classList.toggle("method-wallet", first);
      if (first && !busy && sentFor === null) $("scan-instead").hidden = noScan;
      root.setAttribute("data-method", !can ? "scan" : walletShown ? (first ? "connect_wallet" : "both") : "scan");
    }
  };
})();
