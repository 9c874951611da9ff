package tron

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"
)

// Published address pairs. Sources:
//   - USDT on TRON mainnet: BioforestChain/BFMeta-Wallet,
//     packages/tron/src/core/constants.ts (TRON_USDT_ADDRESS /
//     TRON_USDT_ADDRESS_HEX, also USDC).
//   - wemaketech/tron-format-address, index.js (three fromHex/toHex pairs).
var addressPairs = []struct{ base58, hex string }{
	{"TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "41a614f803b6fd780986a42c78ec9c7f77e6ded13c"},
	{"TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8", "413487b63d30b5b2c87fb7ffa8bcfade38eaac1abe"},
	{"TCNtTa1rveKkovHR2ebABu4K66U6ocUCZX", "411a6ac17c82ad141ebc524a9ffc94965848f35279"},
	{"TEEFn7rQqx4Xc3GL1Bx27A155xAj7w5W7a", "412eb90f8356345c903d9f85e58d1b8177890adfb6"},
	{"TGgd7pXdZALo9GyT4pmF2tT6JRf7ETWVcL", "4149a5f0cda413ab723fff9baf956329ecfe5d1a23"},
}

func TestAddressPublishedPairs(t *testing.T) {
	for _, p := range addressPairs {
		a, err := ParseAddress(p.base58)
		if err != nil {
			t.Fatalf("ParseAddress(%s): %v", p.base58, err)
		}
		if a.Hex() != p.hex {
			t.Errorf("%s: hex %s, want %s", p.base58, a.Hex(), p.hex)
		}
		b, err := ParseAddress(p.hex)
		if err != nil {
			t.Fatalf("ParseAddress(%s): %v", p.hex, err)
		}
		if b.String() != p.base58 {
			t.Errorf("%s: base58 %s, want %s", p.hex, b.String(), p.base58)
		}
		if got := AddressFromEVM(a.EVM()); got != a {
			t.Errorf("EVM round trip of %s changed it", p.base58)
		}
	}
}

// Private key → address vectors:
//   - trustwallet/trust-core, Tests/Tron/TronAddressTests.swift.
//   - iexbase tron-api-python documentation of generate_address (the
//     "TRbkuCKpqPCFEnWTExeeuADA4pNF9Mqwfb" example, with its hex form).
func TestPrivateKeyToAddress(t *testing.T) {
	for _, v := range []struct{ key, base58, hex string }{
		{"BE88DF1D0BF30A923CB39C3BB953178BAAF3726E8D3CE81E7C8462E046E0D835", "THRF3GuPnvvPzKoaT8pJex5XHmo8NNbCb3", ""},
		{"c5e6a5b71d109f1879c2fe48a10f31b55c13d0cfe46c80cd55456c823d7be0ec", "TRbkuCKpqPCFEnWTExeeuADA4pNF9Mqwfb", "41ab737d3fc5828dcaf7d605477435d6f3fce02392"},
	} {
		key, err := crypto.HexToECDSA(v.key)
		if err != nil {
			t.Fatal(err)
		}
		a := KeyAddress(key)
		if a.String() != v.base58 {
			t.Errorf("key %s…: address %s, want %s", v.key[:8], a, v.base58)
		}
		if v.hex != "" && a.Hex() != v.hex {
			t.Errorf("key %s…: hex %s, want %s", v.key[:8], a.Hex(), v.hex)
		}
	}
}

// Transactions published with their txID. Sources:
//   - signed TRC20 transfer captured from Nile: fbsobreira/gotron-sdk,
//     pkg/client/transaction/marshal_test.go (realSignedTxJSON), with its
//     signature;
//   - /wallet/triggersmartcontract example in tronprotocol/documentation-en,
//     docs/api/http/smart-contract/triggersmartcontract.md;
//   - TransferContract example in consenlabs/token-core,
//     tcx-tron/src/signer.rs (comment above sign_transaction).
var txVectors = []struct {
	rawHex, txID, sig, owner string
}{
	{
		rawHex: "0a028ad92208eaef69105495eb1540f09fc0cfcd335aae01081f12a9010a31747970652e676f6f676c65617069732e636f6d2f70726f746f636f6c2e54726967676572536d617274436f6e747261637412740a1541495511a493d8c362be4267224e6d81013a6862ee121541eca9bc828a3005b9a3b909f2cc5c2a54794de05f2244a9059cbb00000000000000000000004150125bea243a640bf85348873b6c4f3c517aee7a00000000000000000000000000000000000000000000000000000000000000017090cbbccfcd33900180c2d72f",
		txID:   "c70b20da8cb8d96a99c1aceb283412acb9dea313a9e467178431a3c6ae8b9f08",
		sig:    "1788bf0281f67c42f5a09322523edee9969e808a863776f21ab6543de9dd42ca0e4955577879df8074086c620eb96709ba9a95d60a166de190a081e8d69801da00",
		owner:  "41495511a493d8c362be4267224e6d81013a6862ee",
	},
	{
		rawHex: "0a0228c32208ce6d34028278856940f89cf1c0dd335aae01081f12a9010a31747970652e676f6f676c65617069732e636f6d2f70726f746f636f6c2e54726967676572536d617274436f6e747261637412740a1541dd791d6b49e190062d650e6a23c575510d35f2f9121541eca9bc828a3005b9a3b909f2cc5c2a54794de05f2244a9059cbb000000000000000000000000088a2bfcb1c7271029fd69a66859d5556089588400000000000000000000000000000000000000000000000000000000000000647089d0edc0dd33900180c2d72f",
		txID:   "8c621a0dc9bd4d405b20d0a43143955b9f546f98bbfde1aec295a65b0f925629",
		owner:  "41dd791d6b49e190062d650e6a23c575510d35f2f9",
	},
	{
		rawHex: "0a0202a22208e216e254e43ee10840c8cbe4e3df2d5a67080112630a2d747970652e676f6f676c65617069732e636f6d2f70726f746f636f6c2e5472616e73666572436f6e747261637412320a15415c68cc82c87446f602f019e5fd797437f5b79cc212154156a6076cd1537fa317c2606e4edfa4acd3e8e92e18a08d06709084e1e3df2d",
		txID:   "88817b9c6276e3c535e4f8f15baf546292ca6ad9d44a7d97857bd6f8909d63d4",
	},
}

func TestPublishedTxIDs(t *testing.T) {
	for _, v := range txVectors {
		raw, _ := hex.DecodeString(v.rawHex)
		if id := sha256.Sum256(raw); hex.EncodeToString(id[:]) != v.txID {
			t.Errorf("sha256(raw) = %x, want %s", id, v.txID)
		}
		r, err := UnmarshalRawData(raw)
		if err != nil {
			t.Fatalf("decode %s: %v", v.txID, err)
		}
		// Re-encoding must give the node's bytes: the stand-in relies on it.
		if got := hex.EncodeToString(r.Marshal()); got != v.rawHex {
			t.Errorf("re-encoded %s:\n got %s\nwant %s", v.txID, got, v.rawHex)
		}
		if id := r.TxID(); hex.EncodeToString(id[:]) != v.txID {
			t.Errorf("TxID() = %x, want %s", id, v.txID)
		}
		if r.Contract.Type == TriggerSmartContract {
			call, err := UnmarshalTriggerCall(r.Contract.Value)
			if err != nil {
				t.Fatal(err)
			}
			if call.Owner.Hex() != v.owner {
				t.Errorf("owner %s, want %s", call.Owner.Hex(), v.owner)
			}
			if r.FeeLimit != 100_000_000 {
				t.Errorf("fee_limit %d, want 100000000", r.FeeLimit)
			}
		}
		if v.sig != "" {
			sig, _ := hex.DecodeString(v.sig)
			signer, err := RecoverSigner(r.TxID(), sig)
			if err != nil {
				t.Fatal(err)
			}
			if signer.Hex() != v.owner {
				t.Errorf("signature recovers %s, want %s", signer.Hex(), v.owner)
			}
		}
	}
}
