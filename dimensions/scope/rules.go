package scope

import (
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/policy"
)

var (
	outsideAllowed = &check.Rule{
		ID: "scope/outside-allowed", Default: policy.Error,
		Short: "a changed path matches no allowed_paths glob",
		Doc: "The policy's scope.allowed_paths lists where the change may go (doublestar globs over " +
			"repository-relative paths). A changed file outside all of them — either side of a rename — " +
			"is a change the task did not ask for: agents wander into files they were never meant to touch. " +
			"Revert the file, or widen allowed_paths if the change is intended.",
	}
	forbiddenPath = &check.Rule{
		ID: "scope/forbidden-path", Default: policy.Error,
		Short: "a changed path matches a forbidden_paths glob",
		Doc: "The policy's scope.forbidden_paths lists paths no change may touch (vendored code, CI " +
			"workflows, secrets). Forbidden beats allowed: a path that matches both is forbidden. Both " +
			"sides of a rename are checked, so moving a file out of a forbidden directory is caught too.",
	}
	forbiddenOperation = &check.Rule{
		ID: "scope/forbidden-operation", Default: policy.Error,
		Short: "the change creates, modifies, deletes or renames a file in a way the policy does not allow",
		Doc: "scope.allowed_operations lists the operations a change may perform (create, modify, delete, " +
			"rename). An agent that may only modify files must not delete the tests that failed.",
	}
	tooManyFiles = &check.Rule{
		ID: "scope/too-many-files", Default: policy.Error,
		Short: "the change touches more files than max_files_changed",
		Doc: "scope.max_files_changed bounds the size of one change (0 means no limit). A change that " +
			"touches many files is hard to review; split it. The finding is reported once, at the first " +
			"file beyond the limit in path order.",
	}
	policyChanged = &check.Rule{
		ID: "scope/policy-changed", Default: policy.Error,
		Short: "the change creates, edits, deletes, renames, shadows or re-links the policy",
		Doc: "An agent must not loosen its own gate. In diff mode, the hooks, the MCP server and the " +
			"agent runner, the policy comes from the trusted side: the base commit's policy file, read " +
			"from git objects, or --policy. Any change to what decides it — .agentverify.yaml or " +
			".agentverify.yml (a new one shadows the other), the --policy file when it is inside the " +
			"repository, the target of a symlinked policy — is reported with what the new policy " +
			"would loosen, and the change is verified under the base policy. A human who means the " +
			"change reruns with --allow-policy-change. Check mode reads the working tree's policy " +
			"and never reports this rule.",
	}
	gateConfigChanged = &check.Rule{
		ID: "scope/gate-config-changed", Default: policy.Error,
		Short: "the change edits a file that configures the verification gate",
		Doc: "Files that decide whether agentverify runs at all — .pre-commit-config.yaml, a " +
			".github/workflows file that runs agentverify (on either side of the change), " +
			"every coding agent's hook configuration (.claude/settings.json and " +
			".claude/settings.local.json, .codex/hooks.json and .codex/config.toml, " +
			".gemini/settings.json, .cursor/hooks.json, .github/hooks/*, .clinerules/hooks/*, " +
			".windsurf/hooks.json, .kiro/hooks/* and .kiro/agents/*, .qwen/settings.json, " +
			".factory/hooks.json and .factory/settings.json, .openhands/hooks.json, " +
			"opencode.json(c) and .opencode/plugins/*, aider's .aider.conf.yml) and .mcp.json — " +
			"are the gate's configuration: an agent that edits them can switch the gate off " +
			"without touching the policy. So is a checker's configuration where a change loosens " +
			"it: a tsconfig.json (or one it extends) that turns strict or checkJs off, turns " +
			"noCheck on, changes lib or target, sends a package's name to a stub through paths, " +
			"or excludes files; the message names what it loosens, and the change is checked " +
			"with the base's options anyway. So is an .npmrc (at any level) whose registry " +
			"settings (registry, @scope:registry) the change alters: the unknown-package check " +
			"asks the base's registry regardless; and, as they steer installs the same way, " +
			"the registries of a .yarnrc or .yarnrc.yml (with the yarn binary and plugins it " +
			"runs), any change to pnpm's .pnpmfile.cjs, and the overrides, package extensions " +
			"and registries of pnpm-workspace.yaml, and package.json's overrides (npm), resolutions " +
			"(yarn) and pnpm.overrides, which can send every install of a name to another package. " +
			"Such an edit is an error unless the base policy sets " +
			"scope.allow_gate_config_changes: true (which also trusts the changed tsconfig.json). " +
			"(.git/hooks is never part of a change.)",
	}
	largeFile = &check.Rule{
		ID: "scope/large-file", Default: policy.Warning,
		Short: "a file over the size limit was not analysed beyond scope",
		Doc: "Files over limits.max_file_size (default 5 MiB) are not loaded: only scope checks run on " +
			"them, and this finding says so, so that a large file never passes silently; a large file of " +
			"a verified language (.go) is also an error, hallucination/unverified-file. Generated or data " +
			"files usually belong outside the change, or in forbidden_paths.",
	}
	unverifiedSubmodule = &check.Rule{
		ID: "scope/unverified-submodule", Default: policy.Error,
		Short: "a submodule brings content that was not verified here",
		Doc: "A submodule is, for the repository that holds it, one path whose content is a commit " +
			"hash (a gitlink): adding one, or moving it to another commit, brings in another " +
			"repository's code, which this run does not verify — and edits inside a submodule's " +
			"working tree are recorded by no commit of the superproject at all. Both are reported, so " +
			"that code never passes unverified: verify the submodule's change in its own repository " +
			"(agentverify diff there), commit it there, and lower this rule in the base policy " +
			"(rules: {scope/unverified-submodule: warning}) where submodule updates are reviewed " +
			"elsewhere. The submodule path itself gets every other scope check (allowed and forbidden " +
			"paths, operations, max_files_changed). A repository nested in the working tree but not " +
			"ignored is what 'git add' would record as a submodule, and is reported the same way.",
	}
)
