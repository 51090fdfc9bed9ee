// Package trust decides the policy in force for a change, from the trusted side: the
// command line (--policy) or the policy file of the base commit, read from git objects —
// never from the disk the change controls — and says what the change must not touch
// (check.Trust). The gated party never controls its own verification (design.md §7).
package trust

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/change/gitchange"
	"github.com/agentverify/agentverify/change/source"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/policy"
)

// policyNames are the policy files looked up at the repository root, in policy.Find's
// order.
var policyNames = []string{policy.DefaultFile, ".agentverify.yml"}

// maxLinks bounds how many symbolic links a committed policy path may go through.
const maxLinks = 8

// Request says where a verification's policy may come from.
type Request struct {
	Kind   source.Kind // the change's source
	GitEnv []string    // the caller's git variables, as source.Spec's
	// PolicyFile overrides the policy found at the repository root; Policy, when set, is
	// used as is. A PolicyFile inside the repository is read as committed at the base
	// when the base has it.
	PolicyFile string
	Policy     *policy.Policy
	// AllowPolicyChange puts the change's own policy in force (a human's
	// --allow-policy-change); never set on behalf of an agent.
	AllowPolicyChange bool
	// TrustedPolicy makes check mode (source.Paths) read the policy from HEAD instead of
	// the working tree, for agent-facing callers; the other sources always do.
	TrustedPolicy bool
}

// Resolve decides the policy in force for req over set, and what the change must not
// touch. Check mode reads the working tree's policy and protects nothing. Every other
// mode reads the trusted side: --policy, or the policy file of the base commit from git
// objects — never the disk the change controls. In trusted modes the scope dimension
// runs even when the policy skips it, so its guard rules always can fire.
func Resolve(set *change.Set, req Request) (*policy.Policy, *check.Trust, error) {
	pol, tr, err := resolve(set, req)
	if err != nil {
		return nil, nil, err
	}
	return guardScope(pol, tr), tr, nil
}

// Build builds the change set of spec and decides the policy in force for it from the
// trusted side. The set is built with the default file-size limit, which the trusted
// policy may lower (applied to the set) or raise (the set is built again, which only a
// policy with a larger max_file_size costs): the change cannot pick its own limit.
func Build(ctx context.Context, spec source.Spec, req Request) (*change.Set, *policy.Policy, *check.Trust, error) {
	if spec.Dir == "" {
		spec.Dir = "."
	}
	set, err := source.Build(ctx, spec, change.DefaultMaxFileSize)
	if err != nil {
		return nil, nil, nil, err
	}
	pol, tr, err := Resolve(set, req)
	if err != nil {
		return nil, nil, nil, err
	}
	if limit := pol.Limits.FileSize(); limit > change.DefaultMaxFileSize && req.Kind != source.Patch { // a patch is read once, and whole
		if set, err = source.Build(ctx, spec, limit); err != nil {
			return nil, nil, nil, err
		}
	}
	set.Limit(pol.Limits.FileSize())
	return set, pol, tr, nil
}

// resolve is Resolve before the scope guard.
func resolve(set *change.Set, req Request) (*policy.Policy, *check.Trust, error) {
	if req.Kind == source.Paths && !req.TrustedPolicy {
		pol, _, err := loadPolicy(set.Root, req)
		return pol, nil, err
	}
	pol, trust, err := trustedSide(set, req)
	if req.Kind == source.Paths {
		trust = nil // check mode has no change to guard, only a trusted policy
	}
	return pol, trust, err
}

// trustedSide reads the policy from the trusted side and says what the change must not
// touch.
func trustedSide(set *change.Set, req Request) (*policy.Policy, *check.Trust, error) {
	if req.Policy != nil {
		return req.Policy, &check.Trust{AllowGateConfig: allowsGateConfig(req.Policy)}, nil
	}
	names := policyNames
	if req.PolicyFile != "" {
		rel, inside := repoRel(set.Root, req.PolicyFile)
		if !inside {
			pol, err := policy.Load(req.PolicyFile)
			if err != nil {
				return nil, nil, err
			}
			return pol, &check.Trust{AllowGateConfig: allowsGateConfig(pol)}, nil
		}
		names = []string{rel}
	}
	snap, err := baseSnapshot(set.Root, req, set)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case snap == nil:
		// An edit (or check) outside a repository: no base to trust; the policy as found,
		// protected. No base means no suppression was there before the change.
		pol, rel, err := loadPolicy(set.Root, req)
		noBase := func(string) ([]byte, bool) { return nil, false }
		if err != nil {
			return nil, nil, err
		}
		return pol, &check.Trust{PolicyFile: rel, PolicyFiles: names, AllowGateConfig: allowsGateConfig(pol), BaseContent: noBase}, nil
	case req.Kind == source.Paths:
		// Check mode for an agent: HEAD's policy.
		pol, _, _, err := basePolicy(snap, names)
		if pol == nil && err == nil {
			pol, err = fallbackPolicy(req)
		}
		return pol, nil, err
	}
	pol, trust, err := trustedPolicy(snap, set, req, names)
	if err == nil && req.Kind == source.Edits {
		trust.BaseContent = snapshotReader(snap)
	}
	return pol, trust, err
}

// snapshotReader reads regular files of the snapshot, for check.Trust.BaseContent.
func snapshotReader(snap *gitchange.Snapshot) func(string) ([]byte, bool) {
	return func(p string) ([]byte, bool) {
		data, link, found, err := snap.Read(p)
		return data, err == nil && found && !link
	}
}

// trustedPolicy reads the base policy and compares it with the one the change would put
// in force.
func trustedPolicy(snap *gitchange.Snapshot, set *change.Set, req Request, names []string) (*policy.Policy, *check.Trust, error) {
	base, inForce, links, err := basePolicy(snap, names)
	if err != nil {
		return nil, nil, err
	}
	if base == nil { // the base has no such file: the --policy file as given, or the default
		if base, err = fallbackPolicy(req); err != nil {
			return nil, nil, err
		}
	}
	allowGate := allowsGateConfig(base)
	if req.AllowPolicyChange {
		head, err := headPolicy(set.HeadFS, names)
		return head, &check.Trust{PolicyFile: inForce, AllowGateConfig: allowGate}, err
	}
	trust := &check.Trust{PolicyFile: inForce, PolicyFiles: append(slices.Clone(names), links...), AllowGateConfig: allowGate}
	if touches(set, trust.PolicyFiles) {
		head, err := headPolicy(set.HeadFS, names)
		if err != nil {
			trust.Weakened = []string{"puts a policy in force that cannot be read (" + oneLine(err.Error()) + ")"}
		} else {
			trust.Weakened = policy.Weakened(base, head)
		}
	}
	return base, trust, nil
}

// baseSnapshot opens the trusted base of the request: the base commit of a working-tree
// diff, HEAD for the index, a patch and in-memory edits. It is nil outside a repository.
func baseSnapshot(root string, req Request, set *change.Set) (*gitchange.Snapshot, error) {
	repo, err := gitchange.OpenEnv(root, req.GitEnv)
	if errors.Is(err, gitchange.ErrNotRepository) && (req.Kind == source.Edits || req.Kind == source.Paths) {
		return nil, nil
	}
	if errors.Is(err, gitchange.ErrNotRepository) {
		return nil, err
	}
	if err != nil {
		// A repository that is there but cannot be read is no reason to take the policy
		// on the disk, which the change controls, for the committed one.
		return nil, fmt.Errorf("opening the git repository: %w", err)
	}
	rev := ""
	if req.Kind == source.WorkingTree {
		rev = set.BaseRev
	}
	return repo.Snapshot(rev)
}

// basePolicy reads the first of names the base commit has, following symbolic links
// inside the repository. It returns a nil policy when the base has none of them.
func basePolicy(snap *gitchange.Snapshot, names []string) (pol *policy.Policy, name string, links []string, err error) {
	for _, n := range names {
		data, target, links, found, err := readFollow(snap, n)
		if err != nil {
			return nil, "", nil, err
		}
		if !found {
			continue
		}
		pol, err := policy.Parse(target, data)
		if err != nil {
			return nil, "", nil, fmt.Errorf("%w (the policy as committed at %.12s)", err, snap.Rev)
		}
		return pol, n, links, nil
	}
	return nil, "", nil, nil
}

// readFollow reads name at the snapshot, following symbolic links; links lists the
// targets gone through. A link leaving the repository is an error.
func readFollow(snap *gitchange.Snapshot, name string) (data []byte, final string, links []string, found bool, err error) {
	cur := name
	for range maxLinks {
		data, link, found, err := snap.Read(cur)
		if err != nil || !found {
			return nil, "", nil, found, err
		}
		if !link {
			return data, cur, links, true, nil
		}
		next := path.Join(path.Dir(cur), string(data))
		if path.IsAbs(string(data)) || !filepath.IsLocal(filepath.FromSlash(next)) {
			return nil, "", nil, false, fmt.Errorf("%s at %.12s: the policy is a symbolic link leaving the repository (%s)", name, snap.Rev, data)
		}
		cur = next
		links = append(links, cur)
	}
	return nil, "", nil, false, fmt.Errorf("%s at %.12s: too many symbolic links", name, snap.Rev)
}

// fallbackPolicy is the policy when the base has no policy file: the --policy file as it
// is (the command line named it), else the built-in default.
func fallbackPolicy(req Request) (*policy.Policy, error) {
	if req.PolicyFile != "" {
		return policy.Load(req.PolicyFile)
	}
	return policy.Default(), nil
}

// headPolicy reads the first of names in the change's head, the built-in default when
// there is none.
func headPolicy(head fs.FS, names []string) (*policy.Policy, error) {
	for _, n := range names {
		data, err := fs.ReadFile(head, n)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		return policy.Parse(n, data)
	}
	return policy.Default(), nil
}

// allowsGateConfig reports whether p lets a change edit the gate's own configuration.
func allowsGateConfig(p *policy.Policy) bool {
	return p.Scope != nil && p.Scope.AllowGateConfigChanges
}

// touches reports whether the change touches one of paths, on either side.
func touches(set *change.Set, paths []string) bool {
	for _, f := range set.Files {
		if slices.Contains(paths, f.Path) || (f.OldPath != "" && slices.Contains(paths, f.OldPath)) {
			return true
		}
	}
	return false
}

// repoRel returns p relative to root when it is inside it.
func repoRel(root, p string) (string, bool) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", false
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// guardScope makes the scope dimension run in trusted modes even when the policy skips
// it, with no path restrictions: only its guard rules (policy and gate configuration)
// can fire. The gate's own protection is not a dimension the policy can switch off.
func guardScope(pol *policy.Policy, trust *check.Trust) *policy.Policy {
	if trust == nil || pol.Scope != nil {
		return pol
	}
	p := *pol
	p.Scope = &policy.ScopeOptions{AllowedOperations: []string{"create", "modify", "delete", "rename"}}
	return &p
}

// oneLine joins s into one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// loadPolicy returns the policy found on the disk (check mode, or no repository) and its
// repository-relative path.
func loadPolicy(root string, req Request) (*policy.Policy, string, error) {
	if req.Policy != nil {
		return req.Policy, policy.DefaultFile, nil
	}
	if req.PolicyFile != "" {
		p, err := policy.Load(req.PolicyFile)
		if err != nil {
			return nil, "", err
		}
		abs, _ := filepath.Abs(req.PolicyFile)
		if rel, err := filepath.Rel(root, abs); err == nil && filepath.IsLocal(rel) {
			return p, filepath.ToSlash(rel), nil
		}
		return p, policy.DefaultFile, nil
	}
	path, found, err := policy.Find(root)
	if err != nil {
		return nil, "", err
	}
	if !found {
		return policy.Default(), policy.DefaultFile, nil
	}
	p, err := policy.Load(path)
	if err != nil {
		return nil, "", err
	}
	rel, _ := filepath.Rel(root, path)
	return p, filepath.ToSlash(rel), nil
}
