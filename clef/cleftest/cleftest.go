// Package cleftest builds and runs a real Clef for tests, set up as
// docs/keys.md tells an operator to: master seed, keys imported into its
// keystore, their passwords stored, the rules file attested.
package cleftest

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// Binary returns a Clef built from the pinned module in tools/clef:
// CASHIER_CLEF_BIN when set (test.sh builds it there in the background,
// early), else built once into the user's cache directory and reused.
func Binary(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("CASHIER_CLEF_BIN"); p != "" {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	_, self, _, _ := runtime.Caller(0)
	tools := filepath.Join(filepath.Dir(self), "..", "..", "tools", "clef")
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	bin := filepath.Join(cache, "cashier-test", "clef-"+pinned(t, tools))
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	tmp := bin + fmt.Sprintf(".%d", os.Getpid())
	cmd := exec.Command("go", "build", "-C", tools, "-o", tmp, "github.com/ethereum/go-ethereum/cmd/clef")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build clef: %v\n%s", err, out)
	}
	if err := os.Rename(tmp, bin); err != nil {
		t.Fatal(err)
	}
	return bin
}

// pinned is a short hash of tools/clef's go.sum: the cached binary is
// rebuilt when the pin changes.
func pinned(t testing.TB, tools string) string {
	b, err := os.ReadFile(filepath.Join(tools, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:6])
}

// Clef is a running Clef.
type Clef struct {
	IPC      string // its external API
	AuditLog string // every request it answered
	t        testing.TB
	bin, dir string
	args     []string // the set-up's common flags
	chainID  uint64
	stop     func()
	mu       sync.Mutex
	log      strings.Builder
}

// Log is what Clef printed so far.
func (c *Clef) Log() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.log.String()
}

const master, keystorePW = "master password of this test", "keystore password of this test"

func run(t testing.TB, bin, stdin string, args ...string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Stdin = strings.NewReader(stdin)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("clef %v: %v\n%s", args, err, out)
	}
}

// Start sets Clef up with keys (hex private keys) in its keystore and the
// rules, and runs it for chainID answering on its IPC socket; stopped at
// the test's end.
func Start(t testing.TB, bin string, keys []string, rules string, chainID uint64) *Clef {
	t.Helper()
	dir, err := os.MkdirTemp("", "clef") // short: a unix socket path has a length limit
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	cfg, ks := filepath.Join(dir, "cfg"), filepath.Join(dir, "ks")
	c := &Clef{IPC: filepath.Join(cfg, "clef.ipc"), AuditLog: filepath.Join(dir, "audit.log"), t: t, bin: bin, dir: dir, chainID: chainID,
		args: []string{"--configdir", cfg, "--keystore", ks, "--suppress-bootwarn", "--lightkdf", "--nousb"}}
	run(t, bin, master+"\n"+master+"\n", append(c.args, "init")...)
	for i, key := range keys {
		keyFile := filepath.Join(dir, fmt.Sprintf("key%d.hex", i))
		if err := os.WriteFile(keyFile, []byte(key+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		run(t, bin, keystorePW+"\n"+keystorePW+"\n", append(c.args, "importraw", keyFile)...)
		k, err := crypto.HexToECDSA(key)
		if err != nil {
			t.Fatal(err)
		}
		run(t, bin, keystorePW+"\n"+keystorePW+"\n"+master+"\n", append(c.args, "setpw", crypto.PubkeyToAddress(k.PublicKey).Hex())...)
	}
	// The payout calls' ABI signatures (clef/4byte.json): Clef refuses a
	// transaction whose call it cannot decode.
	_, self, _, _ := runtime.Caller(0)
	fourByte, err := os.ReadFile(filepath.Join(filepath.Dir(self), "..", "4byte.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "4byte.json"), fourByte, 0o600); err != nil {
		t.Fatal(err)
	}
	c.Restart(rules)
	t.Cleanup(func() { c.stop() })
	return c
}

// Restart stops Clef and starts it again with new rules, attested as an
// operator does after editing the rules file.
func (c *Clef) Restart(rules string) {
	t := c.t
	t.Helper()
	if c.stop != nil {
		c.stop()
	}
	rulesFile := filepath.Join(c.dir, "rules.js")
	if err := os.WriteFile(rulesFile, []byte(rules), 0o600); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(rules))
	run(t, c.bin, master+"\n", append(c.args, "attest", hex.EncodeToString(sum[:]))...)

	cmd := exec.Command(c.bin, append(c.args, "--chainid", fmt.Sprint(c.chainID), "--rules", rulesFile,
		"--4bytedb-custom", filepath.Join(c.dir, "4byte.json"), "--auditlog", c.AuditLog)...)
	stdin, _ := cmd.StdinPipe()
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw // Clef logs and its UI lines go to both
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c.stop = func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait(); pw.Close() }
	io.WriteString(stdin, master+"\n") // kept open: Clef ends when its UI's stdin closes
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(pr)
		once := false
		for sc.Scan() { // drained to the end so Clef never blocks on its output
			c.mu.Lock()
			c.log.WriteString(sc.Text() + "\n")
			c.mu.Unlock()
			if !once && strings.Contains(sc.Text(), "IPC endpoint opened") {
				once = true
				close(ready)
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(time.Minute):
		t.Fatalf("clef did not start:\n%s", c.Log())
	}
}

// Rules is the shipped rules file (clef/rules.js) with the payout
// contracts filled in, as an operator fills it in.
func Rules(t testing.TB, chainID uint64, contracts ...common.Address) string {
	t.Helper()
	_, self, _, _ := runtime.Caller(0)
	b, err := os.ReadFile(filepath.Join(filepath.Dir(self), "..", "rules.js"))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, a := range contracts {
		lines = append(lines, fmt.Sprintf("  %q: true,", fmt.Sprintf("%d:%s", chainID, strings.ToLower(a.Hex()))))
	}
	const slot = "var PAYOUT_CONTRACTS = {\n"
	if !strings.Contains(string(b), slot) {
		t.Fatal("rules.js has no PAYOUT_CONTRACTS")
	}
	return strings.Replace(string(b), slot, slot+strings.Join(lines, "\n")+"\n", 1)
}
