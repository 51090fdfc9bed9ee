#!/usr/bin/env bash
# Prints the key under which the GitHub Action keeps the verdict of this run, so that a
# re-run of the same commit replays it (scripts/action-verify.sh) instead of verifying
# again. The key names everything the verdict depends on: agentverify's version (its
# source and the Go release), the base commit, the tree of the checked-out commit, the
# directory, the action's inputs, the policy file when one is given, and the Go and
# agentverify settings of the environment. It prints nothing when the working tree differs
# from the commit (a step before generated or changed files): such a run is never
# replayed. Inputs come from the environment (never interpolated into the script):
#   AV_VERSION AV_BASE AV_POLICY AV_ALLOW_POLICY_CHANGE AV_ARGS AV_FAIL_ON
set -u
git rev-parse --git-dir > /dev/null 2>&1 || exit 0
[ -z "$(git status --porcelain --untracked-files=normal 2> /dev/null)" ] || exit 0
tree=$(git rev-parse --verify -q 'HEAD^{tree}') || exit 0
base=HEAD
if [ -n "${AV_BASE:-}" ]; then
  base=$(git rev-parse --verify -q "${AV_BASE}^{commit}") || exit 0
fi
policy=none
if [ -n "${AV_POLICY:-}" ]; then
  policy=$(sha256sum < "$AV_POLICY" 2> /dev/null | cut -c1-64) || exit 0
fi
{
  printf 'version %s\nbase %s\ntree %s\ndir %s\n' "${AV_VERSION:-}" "$base" "$tree" "$(git rev-parse --show-prefix)"
  printf 'policy %s %s\nallow %s\nargs %s\nfail-on %s\n' "${AV_POLICY:-}" "$policy" "${AV_ALLOW_POLICY_CHANGE:-}" "${AV_ARGS:-}" "${AV_FAIL_ON:-}"
  env | grep -E '^(GO[A-Z0-9_]*|CGO_ENABLED|AGENTVERIFY_[A-Z_]*)=' | grep -v -E '^(AGENTVERIFY_CACHE_DIR|GOCACHE|GOMODCACHE|GOPATH|GOROOT)=' | LC_ALL=C sort
} | sha256sum | cut -c1-32
