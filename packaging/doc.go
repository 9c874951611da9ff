// Package packaging holds the release's packaging files (debian/: the
// Debian package's control file, systemd unit, settings file and
// maintainer scripts) and the test of scripts/release.sh, which builds
// them.
package packaging
