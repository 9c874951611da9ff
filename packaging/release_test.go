package packaging

import (
	"bufio"
	"bytes"
	"debug/elf"
	"debug/macho"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const version = "v1.2.3"

// TestRelease runs scripts/release.sh v1.2.3 (linux/amd64; all three
// targets with CASHIER_RELEASE_ALL=1) and checks what an operator
// installs: the static binaries (ELF without an interpreter for
// linux/amd64 and arm64, Mach-O arm64), SHA256SUMS verified by
// `sha256sum -c`, the linux/amd64 binary's `version` naming v1.2.3 and the
// commit, the Debian packages' files, owners, modes and conffile, the
// unit passing `systemd-analyze verify` without a warning and `security`
// rating it OK, the maintainer scripts creating the user and data
// directory once and leaving an existing one alone, and a second build of
// the same commit giving the same bytes.
func TestRelease(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-compiles three binaries")
	}
	for _, tool := range []string{"dpkg-deb", "sha256sum", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the release needs %s", tool)
		}
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	build := func(dir string, env ...string) {
		t.Helper()
		cmd := exec.Command("bash", filepath.Join(root, "scripts/release.sh"), version, dir)
		cmd.Dir = root
		cmd.Env = append(append(os.Environ(), "RELEASE_ALLOW_DIRTY=1"), env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("release.sh: %v\n%s", err, out)
		}
	}
	// Cross-compiling the other two targets costs minutes of the suite on
	// a cold build cache; every target goes through the same lines of the
	// script, so the suite builds linux/amd64 and CASHIER_RELEASE_ALL=1
	// builds all three.
	all := os.Getenv("CASHIER_RELEASE_ALL") == "1"
	dist := t.TempDir()
	want := []string{"cashier-v1.2.3-linux-amd64", "cashier_1.2.3_amd64.deb"}
	if all {
		build(dist)
		want = []string{"cashier-v1.2.3-darwin-arm64", "cashier-v1.2.3-linux-amd64", "cashier-v1.2.3-linux-arm64",
			"cashier_1.2.3_amd64.deb", "cashier_1.2.3_arm64.deb"}
	} else {
		build(dist, "RELEASE_TARGETS=linux/amd64")
	}

	// The files, and SHA256SUMS over exactly them.
	sums, err := os.ReadFile(filepath.Join(dist, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, line := range strings.Split(strings.TrimSpace(string(sums)), "\n") {
		f := strings.Fields(line)
		if len(f) != 2 || len(f[0]) != 64 {
			t.Fatalf("SHA256SUMS line %q", line)
		}
		listed = append(listed, f[1])
	}
	slices.Sort(listed)
	if !slices.Equal(listed, want) {
		t.Fatalf("SHA256SUMS lists %v, want %v", listed, want)
	}
	check := exec.Command("sha256sum", "-c", "SHA256SUMS")
	check.Dir = dist
	if out, err := check.CombinedOutput(); err != nil {
		t.Fatalf("sha256sum -c: %v\n%s", err, out)
	}

	// Static binaries of the right kind.
	bins := []struct {
		file    string
		machine elf.Machine
	}{{"cashier-v1.2.3-linux-amd64", elf.EM_X86_64}}
	if all {
		bins = append(bins, struct {
			file    string
			machine elf.Machine
		}{"cashier-v1.2.3-linux-arm64", elf.EM_AARCH64})
	}
	for _, c := range bins {
		f, err := elf.Open(filepath.Join(dist, c.file))
		if err != nil {
			t.Fatal(err)
		}
		if f.Machine != c.machine {
			t.Errorf("%s is for %v", c.file, f.Machine)
		}
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP {
				t.Errorf("%s is dynamically linked (has an interpreter)", c.file)
			}
		}
		if libs, _ := f.ImportedLibraries(); len(libs) > 0 {
			t.Errorf("%s needs %v", c.file, libs)
		}
		f.Close()
	}
	if all {
		mf, err := macho.Open(filepath.Join(dist, "cashier-v1.2.3-darwin-arm64"))
		if err != nil {
			t.Fatal(err)
		}
		if mf.Cpu != macho.CpuArm64 {
			t.Errorf("darwin binary is for %v", mf.Cpu)
		}
		mf.Close()
	}

	// The linux/amd64 binary names the release and its commit.
	head := strings.TrimSpace(run(t, root, "git", "rev-parse", "HEAD"))
	if strings.TrimSpace(run(t, root, "git", "status", "--porcelain", "--untracked-files=no")) != "" {
		head += "-dirty"
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(run(t, dist, "./cashier-v1.2.3-linux-amd64", "version")), &v); err != nil {
		t.Fatal(err)
	}
	if v["version"] != version || v["commit"] != head || v["release"] != true || v["commitTime"] == nil {
		t.Errorf("version printed %v, want version %s commit %s", v, version, head)
	}

	// The Debian package.
	deb := filepath.Join(dist, "cashier_1.2.3_amd64.deb")
	for field, want := range map[string]string{"Package": "cashier", "Version": "1.2.3", "Architecture": "amd64"} {
		if got := strings.TrimSpace(run(t, dist, "dpkg-deb", "-f", deb, field)); got != want {
			t.Errorf("control %s = %q, want %q", field, got, want)
		}
	}
	contents := map[string]string{} // path → mode and owner
	for _, line := range strings.Split(strings.TrimSpace(run(t, dist, "dpkg-deb", "-c", deb)), "\n") {
		f := strings.Fields(line)
		contents[strings.TrimPrefix(f[len(f)-1], ".")] = f[0] + " " + f[1]
	}
	for path, want := range map[string]string{
		"/usr/bin/cashier":                        "-rwxr-xr-x root/root",
		"/usr/lib/systemd/system/cashier.service": "-rw-r--r-- root/root",
		"/etc/cashier/cashier.env":                "-rw-r----- root/root",
	} {
		if contents[path] != want {
			t.Errorf("%s in the package: %q, want %q", path, contents[path], want)
		}
	}
	x := t.TempDir()
	run(t, dist, "dpkg-deb", "-x", deb, x)
	run(t, dist, "dpkg-deb", "-e", deb, filepath.Join(x, "DEBIAN"))
	if b, _ := os.ReadFile(filepath.Join(x, "DEBIAN/conffiles")); strings.TrimSpace(string(b)) != "/etc/cashier/cashier.env" {
		t.Errorf("conffiles: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(x, "usr/bin/cashier")); !bytes.Equal(b, mustRead(t, filepath.Join(dist, "cashier-v1.2.3-linux-amd64"))) {
		t.Error("the package's binary is not the linux/amd64 release binary")
	}
	checkUnit(t, x)
	checkMaintainerScripts(t, x)

	// Reproducible: the same commit built again, elsewhere, gives the
	// same linux/amd64 binary and package (one target, for time).
	again := filepath.Join(t.TempDir(), "elsewhere")
	build(again, "RELEASE_TARGETS=linux/amd64")
	second := string(mustRead(t, filepath.Join(again, "SHA256SUMS")))
	for _, f := range []string{"cashier-v1.2.3-linux-amd64", "cashier_1.2.3_amd64.deb"} {
		line := func(all string) string {
			for _, l := range strings.Split(all, "\n") {
				if strings.HasSuffix(l, "  "+f) {
					return l
				}
			}
			return ""
		}
		if a, b := line(string(sums)), line(second); a == "" || a != b {
			t.Errorf("a second build of %s differs: %q, first %q", f, b, a)
		}
	}
}

// checkUnit: the unit's hardening, verified by systemd where installed.
func checkUnit(t *testing.T, x string) {
	t.Helper()
	unit := string(mustRead(t, filepath.Join(x, "usr/lib/systemd/system/cashier.service")))
	settings := map[string][]string{}
	sc := bufio.NewScanner(strings.NewReader(unit))
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok && !strings.HasPrefix(k, "#") {
			settings[k] = append(settings[k], v)
		}
	}
	for k, want := range map[string]string{
		"User": "cashier", "Group": "cashier", "NoNewPrivileges": "yes", "ProtectSystem": "strict", "ProtectHome": "yes",
		"PrivateTmp": "yes", "ReadWritePaths": "/var/lib/cashier", "EnvironmentFile": "/etc/cashier/cashier.env",
		"ExecStart": "/usr/bin/cashier serve --data /var/lib/cashier", "CapabilityBoundingSet": "",
	} {
		if got := settings[k]; len(got) != 1 || got[0] != want {
			t.Errorf("unit %s=%q, want %q", k, got, want)
		}
	}
	if !regexp.MustCompile(`^\d+$`).MatchString(strings.Join(settings["LimitNOFILE"], "")) {
		t.Errorf("unit LimitNOFILE=%q", settings["LimitNOFILE"])
	}
	if _, err := exec.LookPath("systemd-analyze"); err != nil {
		t.Log("systemd-analyze not installed: the unit is not verified by systemd")
		return
	}
	// verify wants the ExecStart binary to exist: point it at the
	// extracted one (the only change), in a file named as the unit.
	dir := t.TempDir()
	path := filepath.Join(dir, "cashier.service")
	local := strings.ReplaceAll(unit, "/usr/bin/cashier", filepath.Join(x, "usr/bin/cashier"))
	if err := os.WriteFile(path, []byte(local), 0o644); err != nil {
		t.Fatal(err)
	}
	// verify exits 0 on unknown keys and values it ignores: any output
	// at all is a finding.
	out, err := exec.Command("systemd-analyze", "verify", path).CombinedOutput()
	if err != nil || len(bytes.TrimSpace(out)) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
	out, err = exec.Command("systemd-analyze", "security", "--offline=yes", "--threshold=20", path).CombinedOutput()
	if err != nil {
		t.Errorf("systemd-analyze security rates the unit above 2.0 (OK): %v\n%s", err, out)
	}
}

// checkMaintainerScripts runs postinst in a scratch root (DPKG_ROOT) with
// the account and systemd commands replaced by stand-ins that log their
// calls: a first install creates the group, user and data directory; an
// upgrade over an existing user and data directory creates, changes and
// chowns nothing and restarts a running service.
func checkMaintainerScripts(t *testing.T, x string) {
	t.Helper()
	stubs := t.TempDir()
	log := filepath.Join(stubs, "calls")
	users := filepath.Join(stubs, "users") // the stand-in account database
	stub := func(name, body string) {
		if err := os.WriteFile(filepath.Join(stubs, name), []byte("#!/bin/sh\necho \""+name+" $*\" >>"+log+"\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	stub("getent", `grep -qx "$1 $2" `+users+` 2>/dev/null`)
	stub("groupadd", `eval last=\${$#}; echo "group $last" >>`+users)
	stub("useradd", `eval last=\${$#}; echo "passwd $last" >>`+users)
	// install -d ... DIR: make DIR (as this user: the owner is logged).
	stub("install", `eval last=\${$#}; mkdir -p "$last"`)
	stub("chown", "")
	stub("systemctl", "")
	postinst := filepath.Join(x, "DEBIAN/postinst")
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "etc/cashier"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "etc/cashier/cashier.env"), []byte("CASHIER_ADDR=127.0.0.1:8080\n"), 0o640)
	runPostinst := func(args ...string) string {
		t.Helper()
		os.Remove(log)
		cmd := exec.Command("sh", append([]string{postinst}, args...)...)
		cmd.Env = append(os.Environ(), "PATH="+stubs+":"+os.Getenv("PATH"), "DPKG_ROOT="+root)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("postinst %v: %v\n%s", args, err, out)
		}
		b, _ := os.ReadFile(log)
		return string(b)
	}
	first := runPostinst("configure", "")
	for _, want := range []string{"groupadd --system cashier", "useradd --system --gid cashier --home-dir /var/lib/cashier",
		"install -d -m 0700 -o cashier -g cashier " + filepath.Join(root, "var/lib/cashier"), "chown root:cashier"} {
		if !strings.Contains(first, want) {
			t.Errorf("first install: no %q in\n%s", want, first)
		}
	}
	// An upgrade, with data in the directory.
	db := filepath.Join(root, "var/lib/cashier/cashier.db")
	if err := os.WriteFile(db, []byte("the operator's data"), 0o600); err != nil {
		t.Fatal(err)
	}
	upgrade := runPostinst("configure", "1.2.2")
	for _, not := range []string{"groupadd", "useradd", "install", "chown", "chmod", "enable"} {
		if strings.Contains(upgrade, not) {
			t.Errorf("an upgrade ran %q:\n%s", not, upgrade)
		}
	}
	if _, err := os.Stat("/run/systemd/system"); err == nil && !strings.Contains(upgrade, "systemctl try-restart cashier.service") {
		t.Errorf("an upgrade did not restart a running service:\n%s", upgrade)
	}
	if b, _ := os.ReadFile(db); string(b) != "the operator's data" {
		t.Error("an upgrade changed the data directory")
	}
	// Removal and purge keep the data directory.
	for _, s := range []string{"prerm remove", "postrm remove", "postrm purge"} {
		name, arg, _ := strings.Cut(s, " ")
		cmd := exec.Command("sh", filepath.Join(x, "DEBIAN", name), arg)
		cmd.Env = append(os.Environ(), "PATH="+stubs+":"+os.Getenv("PATH"), "DPKG_ROOT="+root)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", s, err, out)
		}
	}
	if b, _ := os.ReadFile(db); string(b) != "the operator's data" {
		t.Error("removal or purge touched the data directory")
	}
}

func run(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, stderr.Bytes())
	}
	return string(out)
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
