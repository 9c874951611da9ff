package app

import (
	"context"
	"crypto/ecdsa"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/address"
	"github.com/stablecashier/cashier/contracts/bindings"
	"github.com/stablecashier/cashier/devchain"
	"github.com/stablecashier/cashier/evm"
	"github.com/stablecashier/cashier/tron"
	"github.com/stablecashier/cashier/tronnode"
)

// theftChain deploys and calls contracts as a given key on one dev chain.
type theftChain interface {
	deploy(t *testing.T, from *ecdsa.PrivateKey, code []byte) common.Address
	exec(t *testing.T, from *ecdsa.PrivateKey, to common.Address, data []byte)
}

type ethDev struct{ c *devchain.Chain }

func (e ethDev) deploy(t *testing.T, from *ecdsa.PrivateKey, code []byte) common.Address {
	t.Helper()
	a, err := e.c.Deploy(context.Background(), from, code)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func (e ethDev) exec(t *testing.T, from *ecdsa.PrivateKey, to common.Address, data []byte) {
	t.Helper()
	if _, err := e.c.Transact(context.Background(), from, &to, nil, data, 0); err != nil {
		t.Fatal(err)
	}
}

type tronDev struct{ n *tronnode.Node }

func (d tronDev) deploy(t *testing.T, from *ecdsa.PrivateKey, code []byte) common.Address {
	t.Helper()
	a, err := d.n.Deploy(tron.AddressFromEVM(crypto.PubkeyToAddress(from.PublicKey)), code, "c")
	if err != nil {
		t.Fatal(err)
	}
	return a.EVM()
}

func (d tronDev) exec(t *testing.T, from *ecdsa.PrivateKey, to common.Address, data []byte) {
	t.Helper()
	if _, err := d.n.Exec(tron.AddressFromEVM(crypto.PubkeyToAddress(from.PublicKey)), tron.AddressFromEVM(to), data); err != nil {
		t.Fatal(err)
	}
	if _, err := d.n.ProduceBlock(); err != nil {
		t.Fatal(err)
	}
}

func units(n int64) *big.Int { return big.NewInt(n) }

func newKey(t *testing.T) *ecdsa.PrivateKey {
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func deployPayout(t *testing.T, ch theftChain, owner *ecdsa.PrivateKey, executor, signer common.Address) common.Address {
	code := append(common.FromHex(bindings.CashierPayoutMetaData.Bin), bindings.NewCashierPayout().PackConstructor(
		crypto.PubkeyToAddress(owner.PublicKey), executor, signer, common.HexToAddress("0x00000000000000000000000000000000000000fe"))...)
	return ch.deploy(t, owner, code)
}

// A payout contract deployed by an unrelated owner, naming the service's
// executor and signer and holding tokens, cannot be registered by another
// merchant, neither through the CLI's path (NewContract) nor the
// dashboard's (provisioner.NewContract); neither can an address without
// code or with other code. The merchant whose own signer the contract
// names registers it, with its deposit factory, on Ethereum and TRON.
func TestRegistrationProvesOwnership(t *testing.T) {
	ctx := context.Background()
	eth, err := devchain.Start(devchain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	tn, err := tronnode.Open(tronnode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tn.Close()
	tronSrv := httptest.NewServer(tn.Handler())
	defer tronSrv.Close()

	ethClient, err := evm.New(evm.Config{Chain: cashier.ChainETH, ChainID: devchain.ChainIDETH, URLs: []string{eth.URL}})
	if err != nil {
		t.Fatal(err)
	}
	defer ethClient.Close()
	tronClient, err := tron.New(tron.Config{URLs: []string{tronSrv.URL}})
	if err != nil {
		t.Fatal(err)
	}
	chains := map[cashier.Chain]cashier.ChainClient{cashier.ChainETH: ethClient, cashier.ChainTRON: tronClient}

	cfg := testConfig(t)
	st, err := OpenStore(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	clock := cashier.SystemClock{}
	honest, _ := NewMerchant("Honest", clock)
	thief, _ := NewMerchant("Thief", clock)
	for _, m := range []*cashier.Merchant{honest, thief} {
		if err := st.Update(ctx, func(tx cashier.Tx) error { return tx.CreateMerchant(ctx, m) }); err != nil {
			t.Fatal(err)
		}
	}
	// The service's network-wide keys, as every contract before merchant
	// signers named them.
	serviceSigner, executor := newKey(t), newKey(t)
	for _, c := range []cashier.Chain{cashier.ChainETH, cashier.ChainTRON} {
		k, _ := NewServiceKey(c, cashier.KeySigner, serviceSigner, clock)
		if err := st.Update(ctx, func(tx cashier.Tx) error { return tx.PutServiceKey(ctx, k) }); err != nil {
			t.Fatal(err)
		}
	}
	dash := provisioner{clock: clock, sandbox: true, store: st, chains: chains}
	register := func(m *cashier.Merchant, c cashier.Chain, addr, factory, impl string) (*cashier.Contract, error) {
		// Both registration paths must give the same answer.
		k, err := NewContract(ctx, st, chains, ContractSpec{MerchantID: m.ID, Chain: string(c), Address: addr,
			DepositFactory: factory, DepositImplementation: impl}, clock)
		if factory == "" {
			_, derr := dash.NewContract(ctx, m.ID, string(c), addr, "")
			if (err == nil) != (derr == nil) {
				t.Fatalf("CLI path: %v; dashboard path: %v", err, derr)
			}
		}
		if err != nil {
			return nil, err
		}
		return k, st.Update(ctx, func(tx cashier.Tx) error { return tx.CreateContract(ctx, k) })
	}
	refused := func(what string, err error, want string) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("%s: %v, want refused with %q", what, err, want)
		}
	}

	for _, net := range []struct {
		c  cashier.Chain
		ch theftChain
	}{{cashier.ChainETH, ethDev{eth}}, {cashier.ChainTRON, tronDev{tn}}} {
		c, ch := net.c, net.ch
		t.Run(string(c), func(t *testing.T) {
			fund := func(k *ecdsa.PrivateKey) {
				a := crypto.PubkeyToAddress(k.PublicKey)
				if c == cashier.ChainETH {
					if err := eth.Fund(ctx, a, units(1e18)); err != nil {
						t.Fatal(err)
					}
				} else if err := tn.Fund(tron.AddressFromEVM(a), 10_000_000_000); err != nil {
					t.Fatal(err)
				}
			}
			victimOwner, honestOwner := newKey(t), newKey(t)
			fund(victimOwner)
			fund(honestOwner)
			if c == cashier.ChainTRON {
				tn.ProduceBlock()
			}
			exec := crypto.PubkeyToAddress(executor.PublicKey)
			// The victim: someone else's contract, trusting the service's
			// executor and shared signer, holding 500 tokens.
			victim := deployPayout(t, ch, victimOwner, exec, crypto.PubkeyToAddress(serviceSigner.PublicKey))
			tokenCode := append(common.FromHex(bindings.TestUSDCMetaData.Bin), bindings.NewTestUSDC().PackConstructor("Tether USD", "USDT")...)
			token := ch.deploy(t, victimOwner, tokenCode)
			ch.exec(t, victimOwner, token, bindings.NewTestUSDC().PackMint(victim, units(500_000_000)))
			victimAddr := address.Format(c, victim)

			_, err := register(thief, c, victimAddr, "", "")
			refused("the thief registering the victim's contract", err, "names signer")
			_, err = register(honest, c, victimAddr, "", "")
			refused("a contract naming the shared service signer", err, "names signer")

			dead := address.Format(c, common.HexToAddress("0x000000000000000000000000000000000000dEaD"))
			_, err = register(thief, c, dead, "", "")
			refused("an address without code", err, "no contract at this address")
			_, err = register(thief, c, address.Format(c, token), "", "")
			refused("a token contract", err, "its code is not the CashierPayout")

			// The honest merchant's contract names its own signer.
			signer, err := MerchantSigner(ctx, st, honest.ID, c, clock)
			if err != nil {
				t.Fatal(err)
			}
			signerAddr, _ := address.Parse(c, signer.Address)
			mine := deployPayout(t, ch, honestOwner, exec, signerAddr)
			mineAddr := address.Format(c, mine)
			factoryABI := bindings.NewDepositFactory()
			prefix := byte(0xff)
			if c == cashier.ChainTRON {
				prefix = tronnode.Create2Prefix
			}
			deployFactory := func(vault common.Address) (string, string) {
				f := ch.deploy(t, honestOwner, append(common.FromHex(bindings.DepositFactoryMetaData.Bin),
					factoryABI.PackConstructor(crypto.PubkeyToAddress(honestOwner.PublicKey), exec, vault, [1]byte{prefix})...))
				rd, _ := ContractReaderFor(chains, c)
				out, err := rd.CallView(ctx, address.Format(c, f), factoryABI.PackImplementation())
				if err != nil {
					t.Fatal(err)
				}
				return address.Format(c, f), address.Format(c, common.BytesToAddress(out[12:]))
			}
			// The thief cannot register a fresh contract naming the honest
			// merchant's signer either.
			_, err = register(thief, c, mineAddr, "", "")
			refused("the thief registering a contract naming another merchant's signer", err, "names signer")
			// A factory sweeping into someone else's contract is refused.
			wrongFactory, wrongImpl := deployFactory(victim)
			_, err = register(honest, c, mineAddr, wrongFactory, wrongImpl)
			refused("a factory sweeping elsewhere", err, "sweeps into")
			factory, impl := deployFactory(mine)
			_, err = register(honest, c, mineAddr, factory, address.Format(c, common.HexToAddress("0x1111111111111111111111111111111111111111")))
			refused("a wrong implementation", err, "has implementation")
			_, err = register(honest, c, mineAddr, victimAddr, impl)
			refused("a payout contract given as the factory", err, "its code is not the DepositFactory")

			k, err := register(honest, c, mineAddr, factory, impl)
			if err != nil {
				t.Fatalf("the honest merchant's registration: %v", err)
			}
			if got, _ := st.Contract(ctx, k.ID); got.Signer != signer.Address || got.MerchantID != honest.ID || got.DepositFactory != factory {
				t.Fatalf("registered %+v, want signer %s", got, signer.Address)
			}
			if _, err := st.ContractByAddress(ctx, c, victimAddr); cashier.ErrorCode(err) != cashier.EContractNotFound {
				t.Fatalf("the victim's contract is registered: %v", err)
			}

			// A contract registered before merchant signers (signer '')
			// keeps its registration; once its owner names the merchant's
			// signer, checking it again records that signer.
			legacyOwner := victimOwner
			legacy := deployPayout(t, ch, legacyOwner, exec, crypto.PubkeyToAddress(serviceSigner.PublicKey))
			old := &cashier.Contract{ID: "k_old_" + string(c), MerchantID: thief.ID, Chain: c, Address: address.Format(c, legacy),
				Status: cashier.ContractActive, CreatedAt: time.Now()}
			if err := st.Update(ctx, func(tx cashier.Tx) error { return tx.CreateContract(ctx, old) }); err != nil {
				t.Fatal(err)
			}
			_, err = CheckContract(ctx, st, chains, old.ID, clock)
			refused("checking a legacy contract still naming the shared signer", err, "names signer")
			if got, _ := st.Contract(ctx, old.ID); got.Signer != "" {
				t.Fatalf("a failed check changed the signer to %q", got.Signer)
			}
			// Until proven again or confirmed, it is flagged and its
			// payouts wait; the operator's confirmation checks the chain
			// (code, and signer() the service signer) and records the
			// service signer, which then signs for it.
			keys := ServiceKeys{Store: st}
			if p := ContractProof(ctx, st, old); p != ProofNone {
				t.Fatalf("a legacy registration's proof: %s", p)
			}
			_, _, err = ConfirmContract(ctx, st, map[cashier.Chain]cashier.ChainClient{}, keys, old.ID)
			refused("confirming without the network's node", err, "checked on chain")
			confirmed, owner, err := ConfirmContract(ctx, st, chains, keys, old.ID)
			if err != nil || confirmed.Signer != KeyAddress(c, serviceSigner) || owner != address.Format(c, crypto.PubkeyToAddress(legacyOwner.PublicKey)) {
				t.Fatalf("confirm: %+v owner %s, %v", confirmed, owner, err)
			}
			if got, _ := st.Contract(ctx, old.ID); got.Signer != KeyAddress(c, serviceSigner) || ContractProof(ctx, st, got) != ProofConfirmed {
				t.Fatalf("after the confirmation: %+v", got)
			}
			_, _, err = ConfirmContract(ctx, st, chains, keys, k.ID)
			refused("confirming a proven registration", err, "nothing to confirm")
			if p := ContractProof(ctx, st, k); p != ProofMerchantSigner {
				t.Fatalf("a proven registration's proof: %s", p)
			}
			thiefSigner, err := MerchantSigner(ctx, st, thief.ID, c, clock)
			if err != nil {
				t.Fatal(err)
			}
			ts, _ := address.Parse(c, thiefSigner.Address)
			ch.exec(t, legacyOwner, legacy, bindings.NewCashierPayout().PackSetSigner(ts))
			_, _, err = ConfirmContract(ctx, st, chains, keys, old.ID)
			refused("confirming a contract that names another signer", err, "not the service signer")
			got, err := CheckContract(ctx, st, chains, old.ID, clock)
			if err != nil || got.Signer != thiefSigner.Address {
				t.Fatalf("check after setSigner: %+v %v", got, err)
			}
		})
	}

	// An operator cannot hand a merchant the service's shared signer, or
	// another merchant's.
	if _, err := ImportMerchantSigner(ctx, st, ServiceKeys{Store: st}, thief.ID, cashier.ChainARB, serviceSigner, clock); err == nil {
		t.Fatal("the shared service signer was imported as a merchant's signer")
	}
	hs, err := st.MerchantSigner(ctx, honest.ID, cashier.ChainETH)
	if err != nil {
		t.Fatal(err)
	}
	hk, _ := crypto.ToECDSA(hs.PrivateKey)
	if _, err := ImportMerchantSigner(ctx, st, ServiceKeys{Store: st}, thief.ID, cashier.ChainARB, hk, clock); err == nil {
		t.Fatal("another merchant's signer (on another network) was imported")
	}
	if _, err := st.MerchantSigner(ctx, thief.ID, cashier.ChainARB); cashier.ErrorCode(err) != cashier.ENotFound {
		t.Fatalf("a refused import stored a signer: %v", err)
	}
}
