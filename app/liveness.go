package app

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"syscall"
)

// Each instance holds an exclusive lock on DATA/instances/ID.lock while it
// runs; the kernel drops the lock when the process exits, however it
// exits. Another instance sharing the data directory can so tell for
// certain that a lease holder is gone and take its work at once instead of
// waiting out the lease (a restart after a crash resumes in well under a
// second). Holders without a lock file here (instances on other hosts
// sharing a database server) are waited out as before.

const instancesDir = "instances"

var holderName = regexp.MustCompile(`^[A-Za-z0-9._-]{1,200}$`)

// lockInstance creates and locks this instance's lock file; the returned
// function unlocks and removes it.
func lockInstance(data, id string) (func(), error) {
	dir := filepath.Join(data, instancesDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, id+".lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	return func() { os.Remove(path); f.Close() }, nil
}

// deadLocal reports whether holder is an instance that ran on this data
// directory and has exited: its lock file exists and nobody holds its
// lock. The stale file is removed.
func deadLocal(data, holder string) bool {
	if !holderName.MatchString(holder) {
		return false
	}
	path := filepath.Join(data, instancesDir, holder+".lock")
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return false // no lock file: not ours to judge
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) || err != nil {
		return false // alive (or cannot tell)
	}
	os.Remove(path)
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return true
}
