// Package pgtest runs a throwaway PostgreSQL server for tests: initdb into
// a temporary directory, the server on a free port of 127.0.0.1 (settings
// as shipped, fsync included), one fresh database per test. A test binary
// starts at most one server, on first use, and Main stops it. Missing
// server binaries fail the test with the command that installs them:
// nothing here mocks the database.
package pgtest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver, for creating databases
)

// Install is the command that provides the server binaries.
const Install = "apt-get install -y postgresql"

// Server is a running throwaway server.
type Server struct {
	bin  string // directory of the server binaries
	dir  string // data directory (and log)
	port int
	cmd  *exec.Cmd
	done chan error
	dbs  atomic.Int64
}

var (
	once    sync.Once
	shared  *Server
	initErr error
)

// Main runs the tests of a package and then stops the server, if one was
// started. Call it from TestMain.
func Main(m *testing.M) {
	code := m.Run()
	if shared != nil {
		if err := shared.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "pgtest:", err)
		}
	}
	os.Exit(code)
}

// URL returns the URL of a new, empty database on the shared server,
// starting the server on first use.
func URL(t testing.TB) string {
	t.Helper()
	once.Do(func() { shared, initErr = Start() })
	if initErr != nil {
		t.Fatal(initErr)
	}
	u, err := shared.NewDatabase()
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// binDir finds the newest installed server's binaries.
func binDir() (string, error) {
	if d := os.Getenv("PGTEST_BIN"); d != "" {
		return d, nil
	}
	found, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(found) == 0 {
		return "", fmt.Errorf("pgtest: no PostgreSQL server binaries (/usr/lib/postgresql/*/bin/initdb); install them: %s", Install)
	}
	sort.Slice(found, func(i, j int) bool {
		vi, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(found[i]))))
		vj, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(found[j]))))
		return vi < vj
	})
	return filepath.Dir(found[len(found)-1]), nil
}

// asServerUser makes cmd run as the postgres user when this process is
// root (initdb and postgres refuse to run as root).
func asServerUser(cmd *exec.Cmd) (uid, gid int, err error) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGQUIT}
	if os.Geteuid() != 0 {
		return -1, -1, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return 0, 0, fmt.Errorf("pgtest: running as root needs a postgres user to run the server as: %w", err)
	}
	uid, _ = strconv.Atoi(u.Uid)
	gid, _ = strconv.Atoi(u.Gid)
	cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	return uid, gid, nil
}

// Start initialises a data directory and starts a server on it.
func Start() (*Server, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "pgtest-")
	if err != nil {
		return nil, err
	}
	data := filepath.Join(dir, "data")
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres", "-A", "trust",
		"--encoding=UTF8", "--locale=C", "--no-instructions")
	uid, gid, err := asServerUser(initdb)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if uid >= 0 {
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	if out, err := initdb.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("pgtest: initdb: %v\n%s", err, out)
	}
	for attempt := 0; ; attempt++ {
		s, err := start(bin, dir, data)
		if err == nil || attempt == 4 {
			if err != nil {
				os.RemoveAll(dir)
			}
			return s, err
		}
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func start(bin, dir, data string) (*Server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	return startOn(bin, dir, data, port)
}

func startOn(bin, dir, data string, port int) (*Server, error) {
	logPath := filepath.Join(dir, "server.log")
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	cmd := exec.Command(filepath.Join(bin, "postgres"), "-D", data, "-p", strconv.Itoa(port),
		"-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "max_connections=200")
	cmd.Stdout, cmd.Stderr = logf, logf
	if _, _, err := asServerUser(cmd); err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("pgtest: start postgres: %w", err)
	}
	s := &Server{bin: bin, dir: dir, port: port, cmd: cmd, done: make(chan error, 1)}
	go func() { s.done <- cmd.Wait() }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		db, err := sql.Open("pgx", s.url("postgres"))
		if err == nil {
			err = db.Ping()
			db.Close()
		}
		if err == nil {
			return s, nil
		}
		select {
		case werr := <-s.done:
			log, _ := os.ReadFile(logPath)
			return nil, fmt.Errorf("pgtest: postgres exited: %v\n%s", werr, log)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.Stop()
			return nil, fmt.Errorf("pgtest: postgres not ready after 30s: %w", err)
		}
	}
}

// URL is the URL of database db on the server.
func (s *Server) URL(db string) string { return s.url(db) }

func (s *Server) url(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", s.port, db)
}

// NewDatabase creates an empty database and returns its URL.
func (s *Server) NewDatabase() (string, error) {
	name := fmt.Sprintf("t%d_%d", os.Getpid(), s.dbs.Add(1))
	db, err := sql.Open("pgx", s.url("postgres"))
	if err != nil {
		return "", err
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		return "", fmt.Errorf("pgtest: create database: %w", err)
	}
	return s.url(name), nil
}

// Bin is the directory of the server's binaries (initdb, createdb, …).
func (s *Server) Bin() string { return s.bin }

// Port is the server's TCP port on 127.0.0.1.
func (s *Server) Port() int { return s.port }

// DataDir is the server's data directory.
func (s *Server) DataDir() string { return filepath.Join(s.dir, "data") }

// Shared is the server URL started; nil before the first call of URL.
func Shared() *Server { return shared }

// Restart crashes the server (an immediate shutdown: sessions cut, no
// checkpoint, as on a power loss of the database host), keeps it down for
// down, and starts it again on the same port and data directory, where
// it recovers from its write-ahead log. What clients see is a database
// failing over behind the same address.
func (s *Server) Restart(down time.Duration) error {
	_ = s.cmd.Process.Signal(syscall.SIGQUIT)
	select {
	case <-s.done:
	case <-time.After(30 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
	time.Sleep(down)
	ns, err := startOn(s.bin, s.dir, s.DataDir(), s.port)
	if err != nil {
		return err
	}
	s.cmd, s.done = ns.cmd, ns.done
	return nil
}

// Stop shuts the server down (fast shutdown: open sessions are ended) and
// removes its directory.
func (s *Server) Stop() error {
	_ = s.cmd.Process.Signal(syscall.SIGINT)
	var err error
	select {
	case err = <-s.done:
	case <-time.After(30 * time.Second):
		_ = s.cmd.Process.Kill()
		err = errors.Join(errors.New("pgtest: postgres did not stop in 30s; killed"), <-s.done)
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) && strings.Contains(ee.Error(), "exit status") {
		err = nil // postgres exits non-zero after a fast shutdown of live sessions on some versions
	}
	return errors.Join(err, os.RemoveAll(s.dir))
}

// StartPair starts a primary and its synchronous streaming standby, as
// production should run (docs/storage.md): the standby is a
// pg_basebackup of the primary, streaming from it, and the primary's
// synchronous_standby_names names it, so a commit returns only once the
// standby has flushed it. A crash of the primary then loses no commit a
// client saw succeed, once the standby is promoted.
func StartPair() (primary, standby *Server, err error) {
	primary, err = Start()
	if err != nil {
		return nil, nil, err
	}
	fail := func(err error) (*Server, *Server, error) {
		primary.Stop()
		return nil, nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := primary.exec(ctx, `ALTER SYSTEM SET synchronous_standby_names = 'standby'`, `SELECT pg_reload_conf()`); err != nil {
		return fail(err)
	}
	dir, err := os.MkdirTemp("", "pgtest-standby-")
	if err != nil {
		return fail(err)
	}
	data := filepath.Join(dir, "data")
	// -R writes standby.signal and the connection to the primary; the
	// application name is what synchronous_standby_names matches.
	base := exec.Command(filepath.Join(primary.bin, "pg_basebackup"), "-D", data, "-X", "stream", "-R",
		"-d", fmt.Sprintf("host=127.0.0.1 port=%d user=postgres application_name=standby", primary.port))
	uid, gid, err := asServerUser(base)
	if err != nil {
		os.RemoveAll(dir)
		return fail(err)
	}
	if uid >= 0 {
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return fail(err)
		}
	}
	if out, err := base.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return fail(fmt.Errorf("pgtest: pg_basebackup: %v\n%s", err, out))
	}
	// The copy carries the primary's synchronous_standby_names (ALTER
	// SYSTEM's file): promoted with it, the standby would wait for a
	// standby of its own on every commit. Alone, it commits alone.
	auto, err := os.OpenFile(filepath.Join(data, "postgresql.auto.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err == nil {
		_, err = auto.WriteString("synchronous_standby_names = ''\n")
		err = errors.Join(err, auto.Close())
	}
	if err != nil {
		os.RemoveAll(dir)
		return fail(err)
	}
	for attempt := 0; ; attempt++ {
		standby, err = start(primary.bin, dir, data)
		if err == nil {
			break
		}
		if attempt == 4 {
			os.RemoveAll(dir)
			return fail(err)
		}
	}
	// Synchronous from here on.
	db, err := sql.Open("pgx", primary.url("postgres"))
	if err != nil {
		standby.Stop()
		return fail(err)
	}
	defer db.Close()
	for {
		var state string
		err := db.QueryRowContext(ctx, `SELECT sync_state FROM pg_stat_replication WHERE application_name = 'standby'`).Scan(&state)
		if err == nil && state == "sync" {
			return primary, standby, nil
		}
		if ctx.Err() != nil {
			standby.Stop()
			return fail(fmt.Errorf("pgtest: the standby did not become synchronous (%q, %v)", state, err))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (s *Server) exec(ctx context.Context, stmts ...string) error {
	db, err := sql.Open("pgx", s.url("postgres"))
	if err != nil {
		return err
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("pgtest: %s: %w", q, err)
		}
	}
	return nil
}

// Crash stops the server at once and leaves it down: an immediate
// shutdown (SIGQUIT to the postmaster: every session cut, no checkpoint,
// as pg_ctl stop -m immediate), which clients see as the host gone.
func (s *Server) Crash() error {
	_ = s.cmd.Process.Signal(syscall.SIGQUIT)
	var err error
	select {
	case err = <-s.done:
	case <-time.After(30 * time.Second):
		_ = s.cmd.Process.Kill()
		err = <-s.done
	}
	s.done <- err // for Stop
	return nil
}

// Promote ends a standby's recovery: it becomes a primary taking writes.
func (s *Server) Promote() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return s.exec(ctx, `SELECT pg_promote(true, 60)`)
}
