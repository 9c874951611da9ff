// The refund link's wallet button: on Ethereum and Arbitrum a browser
// wallet may fill the address field with its own account. The form works
// without it.
(function () {
  "use strict";
  var btn = document.getElementById("refund-connect");
  var input = document.getElementById("refund-address");
  if (!btn || !input || !(window.ethereum && window.ethereum.request)) {
    return;
  }
  btn.hidden = false;
  btn.addEventListener("click", function () {
    window.ethereum.request({ method: "eth_requestAccounts" }).then(function (accounts) {
      if (accounts && accounts.length > 0) {
        input.value = accounts[0];
      }
    }).catch(function () {});
  });
})();
