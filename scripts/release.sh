#!/usr/bin/env bash
# scripts/release.sh VERSION DIR: the release files of VERSION (v1.2.3) in DIR.
#
#   cashier-VERSION-linux-amd64     static binaries (CGO_ENABLED=0)
#   cashier-VERSION-linux-arm64
#   cashier-VERSION-darwin-arm64
#   cashier_X.Y.Z_amd64.deb         Debian packages: the binary, the systemd
#   cashier_X.Y.Z_arm64.deb         unit, /etc/cashier/cashier.env, and the
#                                   maintainer scripts (packaging/debian)
#   SHA256SUMS                      `sha256sum -c SHA256SUMS` in DIR checks them
#
# The build is reproducible: -trimpath, no VCS stamping, an empty build id,
# and the version, the commit and the commit's date (never the build's)
# through -ldflags; the packages' file times are the commit's date too
# (SOURCE_DATE_EPOCH). The same commit built anywhere gives the same bytes.
# It builds the committed tree: uncommitted changes are refused
# (RELEASE_ALLOW_DIRTY=1 builds them anyway, marking the commit "-dirty").
# RELEASE_TARGETS="linux/amd64 …" builds only those targets.
set -euo pipefail

usage() { echo "usage: $0 VERSION DIR   (VERSION like v1.2.3)" >&2; exit 2; }
[ $# -eq 2 ] || usage
version=$1 out=$2
if ! [[ "$version" =~ ^v([0-9]+)\.([0-9]+)\.([0-9]+)(-[0-9A-Za-z.-]+)?$ ]]; then
  echo "release: VERSION must look like v1.2.3 or v1.2.3-rc.1, not \"$version\"" >&2; exit 2
fi
# Debian's version: without the v, and a pre-release sorting before the
# release (1.2.3~rc.1 < 1.2.3).
debversion=${version#v}
debversion=${debversion/-/\~}

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
for tool in go git dpkg-deb sha256sum; do
  command -v "$tool" >/dev/null 2>&1 || { echo "release: $tool is needed" >&2; exit 1; }
done

commit=$(git rev-parse HEAD)
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
  if [ "${RELEASE_ALLOW_DIRTY:-}" != 1 ]; then
    echo "release: the worktree has uncommitted changes; commit them (or RELEASE_ALLOW_DIRTY=1)" >&2; exit 1
  fi
  commit="$commit-dirty"
fi
epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct HEAD)}
date=$(date -u -d "@$epoch" +%Y-%m-%dT%H:%M:%SZ)
export SOURCE_DATE_EPOCH=$epoch

mkdir -p "$out"
out=$(cd "$out" && pwd)
ldflags="-s -w -buildid= -X main.releaseVersion=$version -X main.releaseCommit=$commit -X main.releaseDate=$date"

# RELEASE_TARGETS narrows the build (a test checking reproducibility).
read -r -a targets <<<"${RELEASE_TARGETS:-linux/amd64 linux/arm64 darwin/arm64}"
files=()
for t in "${targets[@]}"; do
  goos=${t%/*} goarch=${t#*/}
  bin="cashier-$version-$goos-$goarch"
  echo "release: building $bin" >&2
  CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch GOFLAGS= \
    go build -trimpath -buildvcs=false -ldflags="$ldflags" -o "$out/$bin" ./cmd/cashier
  touch -d "@$epoch" "$out/$bin"
  files+=("$bin")
done

# deb ARCH BINARY: the Debian package of one linux binary.
deb() {
  local arch=$1 bin=$2 stage
  stage=$(mktemp -d)
  trap 'rm -rf "$stage"' RETURN
  local pkg="$stage/cashier"
  install -d -m 0755 "$pkg/DEBIAN" "$pkg/usr/bin" "$pkg/usr/lib/systemd/system" "$pkg/etc/cashier"
  install -m 0755 "$out/$bin" "$pkg/usr/bin/cashier"
  install -m 0644 packaging/debian/cashier.service "$pkg/usr/lib/systemd/system/cashier.service"
  # Settings, with secrets possibly: readable by root and the service's
  # group only (postinst sets the group; dpkg keeps an edited copy).
  install -m 0640 packaging/debian/cashier.env "$pkg/etc/cashier/cashier.env"
  for s in postinst prerm postrm; do
    install -m 0755 "packaging/debian/$s" "$pkg/DEBIAN/$s"
  done
  install -m 0644 packaging/debian/conffiles "$pkg/DEBIAN/conffiles"
  local size
  size=$(du -sk --exclude=DEBIAN "$pkg" | cut -f1)
  sed -e "s/@VERSION@/$debversion/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" \
    packaging/debian/control >"$pkg/DEBIAN/control"
  chmod 0644 "$pkg/DEBIAN/control"
  find "$pkg" -exec touch -h -d "@$epoch" {} +
  local name="cashier_${debversion}_$arch.deb"
  # --root-owner-group: every file root's, whoever builds; SOURCE_DATE_EPOCH
  # fixes the archive's own times.
  dpkg-deb --root-owner-group -Zxz --build "$pkg" "$out/$name" >/dev/null
  files+=("$name")
}
for t in "${targets[@]}"; do
  case $t in linux/*) deb "${t#linux/}" "cashier-$version-linux-${t#linux/}" ;; esac
done

(cd "$out" && sha256sum "${files[@]}" >SHA256SUMS)
echo "release: $version ($commit, $date) in $out:" >&2
(cd "$out" && ls -l "${files[@]}" SHA256SUMS) >&2
