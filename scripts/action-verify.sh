#!/usr/bin/env bash
# Runs 'agentverify diff' for the GitHub Action: writes SARIF, prints annotations, and sets
# the outputs status, sarif-file and exit-code. It always exits 0 so that the SARIF upload
# runs before the Gate step fails the job. Inputs come from the environment (never
# interpolated into the script, so no input can inject shell code):
#   AV_BIN AV_BASE AV_POLICY AV_ALLOW_POLICY_CHANGE AV_ARGS AV_FAIL_ON AV_SARIF, and
#   GITHUB_OUTPUT; AV_VERDICT_DIR and AV_VERDICT_KEY (scripts/action-verdict-key.sh) keep
#   the verdict for a re-run of the same commit.
set -u

# A re-run of the same commit (same base, tree, inputs and agentverify) replays the
# verdict an earlier run kept under the same key: its annotations, SARIF file and exit
# code. A run that could not verify (exit 2) is never kept, so a re-run retries it.
dir=${AV_VERDICT_DIR:-}
key=${AV_VERDICT_KEY:-}
if [ -n "$dir" ] && [ -n "$key" ] && [ "$(cat "$dir/key" 2> /dev/null)" = "$key" ] &&
  [ -f "$dir/code" ] && [ -f "$dir/annotations" ] && [ -f "$dir/sarif" ]; then
  code=$(cat "$dir/code")
  case "$code" in
    0 | 1)
      cp "$dir/sarif" "$AV_SARIF" && cat "$dir/annotations" &&
        echo "agentverify: the verdict of an earlier run of this commit (key $key), replayed" &&
        replayed=true
      ;;
  esac
fi
args=(diff --fail-on "${AV_FAIL_ON:-error}")
[ -n "${AV_BASE:-}" ] && args+=(--base "$AV_BASE")
[ -n "${AV_POLICY:-}" ] && args+=(--policy "$AV_POLICY")
[ "${AV_ALLOW_POLICY_CHANGE:-false}" = "true" ] && args+=(--allow-policy-change)
# AV_ARGS is split on white space, as a user writes flags in a workflow file.
read -r -a extra <<< "${AV_ARGS:-}"
args+=("${extra[@]}")

# One run writes the SARIF file and prints the annotations of the same verification, for
# the job log and the pull request's files; the verdict is read from them (the exit code
# also depends on --fail-on).
if [ "${replayed:-false}" = true ]; then
  annotations=$(cat "$dir/annotations")
else
  replayed=false
  annotations=$("$AV_BIN" "${args[@]}" --output "sarif=$AV_SARIF" --output github)
  code=$?
  printf '%s\n' "$annotations"
  if [ -n "$dir" ] && [ -n "$key" ] && { [ "$code" = 0 ] || [ "$code" = 1 ]; } && [ -s "$AV_SARIF" ]; then
    rm -rf "$dir" && mkdir -p "$dir" && cp "$AV_SARIF" "$dir/sarif" &&
      printf '%s\n' "$annotations" > "$dir/annotations" && echo "$code" > "$dir/code" && echo "$key" > "$dir/key"
  fi
fi
# The exit code says who is at fault: 2 could not verify (status error), 1 the change
# failed (also warnings under --fail-on warning), 0 passed or warnings.
case "$code" in
  0) if grep -q '^::warning ' <<< "$annotations"; then status=warnings; else status=passed; fi ;;
  1) status=failed ;;
  *) status=error ;;
esac
{
  echo "status=$status"
  echo "exit-code=$code"
  echo "replayed=$replayed"
  if [ -s "$AV_SARIF" ]; then echo "sarif-file=$AV_SARIF"; fi
} >> "${GITHUB_OUTPUT:-/dev/null}"
echo "agentverify: $status (exit $code)"
exit 0
