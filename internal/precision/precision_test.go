package main

import "testing"

func TestParseSpec(t *testing.T) {
	for arg, want := range map[string]repoSpec{
		"cobra=/m/cobra":        {name: "cobra", dir: "/m/cobra", ref: "HEAD"},
		"chi=/m/chi@master":     {name: "chi", dir: "/m/chi", ref: "master"},
		"cli=/m/cli@v2.63.0#12": {name: "cli", dir: "/m/cli", ref: "v2.63.0", commits: 12},
		"mux=/m/mux#7":          {name: "mux", dir: "/m/mux", ref: "HEAD", commits: 7},
	} {
		if got, err := parseSpec(arg); err != nil || got != want {
			t.Errorf("parseSpec(%q) = %+v, %v; want %+v", arg, got, err, want)
		}
	}
	for _, bad := range []string{"cobra", "=x", "a=", "a=/x#0", "a=/x#n"} {
		if _, err := parseSpec(bad); err == nil {
			t.Errorf("parseSpec(%q) accepted", bad)
		}
	}
}

// The oracle tells code that does not compile from a vet finding and from a toolchain
// that could not run.
func TestClassify(t *testing.T) {
	cases := []struct {
		out       string
		fromBuild bool
		want      string
	}{
		{"# m\n./a.go:3:2: undefined: x\n", true, compileFails},
		{"# m\nvet: ./a_test.go:3:2: undefined: x\n", false, compileFails},
		{"# m\n./a.go:3:2: fmt.Sprintf format %d has arg s of wrong type string\n", false, vetFails},
		{"go: updates to go.mod needed; to update it:\n\tgo mod tidy\n", true, envFails},
		{"m/a.go:3:2: missing go.sum entry for module providing package x\n", true, envFails},
		{"FAIL\tm [build failed]\n", false, compileFails},
	}
	for _, c := range cases {
		if got := classify(c.out, c.fromBuild); got != c.want {
			t.Errorf("classify(%q, %v) = %s, want %s", c.out, c.fromBuild, got, c.want)
		}
	}
}

func TestVerdict(t *testing.T) {
	pass, broken := oracle{Status: passes}, oracle{Status: compileFails}
	errs := []found{{Rule: "hallucination/undefined"}}
	confirmed := []found{{Rule: "hallucination/undefined", Config: "built for GOOS=windows GOARCH=amd64", Confirmed: true}}
	cases := []struct {
		head oracle
		base *oracle
		r    verification
		want string
	}{
		{pass, nil, verification{}, clean},
		{pass, nil, verification{Exit: 1, Errors: errs}, falseAlarm},
		{pass, nil, verification{Exit: 1, Errors: confirmed}, otherConfig},
		{broken, &pass, verification{Exit: 1, Errors: errs}, caught},
		{broken, &pass, verification{Exit: 1}, missed},
		{broken, &broken, verification{Exit: 1}, baseBroken},
		{pass, nil, verification{Exit: 2}, notVerified},
		{oracle{Status: envFails}, nil, verification{}, oracleEnv},
	}
	for i, c := range cases {
		s := &sample{Head: c.head, BaseOr: c.base}
		if got := verdict(s, &c.r); got != c.want {
			t.Errorf("case %d: verdict %s, want %s", i, got, c.want)
		}
	}
}
