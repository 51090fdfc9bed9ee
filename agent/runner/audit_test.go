package runner

import (
	"bytes"
	"strings"
	"testing"
)

func TestReadAuditErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", "a.jsonl:1: an audit log starts with a \"start\" record"},
		{`{"kind":"model"}`, `a.jsonl:1: an audit log starts with a "start" record`},
		{`{"kind":"start","version":9,"settings":{}}`, "a.jsonl:1: audit version 9, want 1"},
		{`{"kind":"start","version":1,"settings":{}}` + "\n{oops", "a.jsonl:2: not an audit record"},
	}
	for _, c := range cases {
		_, err := ReadAudit(strings.NewReader(c.in), "a.jsonl")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.in, err, c.want)
		}
	}
}

func TestAuditRedactsSecrets(t *testing.T) {
	var buf bytes.Buffer
	a := NewAudit(&buf, "s3cr\"et")
	a.Write(Record{Kind: KindToolCall, Observation: `key s3cr"et here`, Input: `{"k":"s3cr\"et"}`})
	if strings.Contains(buf.String(), "s3cr") || strings.Count(buf.String(), "[REDACTED]") != 2 {
		t.Errorf("not redacted: %s", buf.String())
	}
}

func FuzzReadAudit(f *testing.F) {
	f.Add([]byte(`{"kind":"start","version":1,"settings":{"task":"t","access":"write","max_steps":3}}` + "\n" + `{"kind":"model","reply":{"role":"assistant","content":"hi"}}` + "\n"))
	f.Add([]byte(`{"kind":"start","version":1,"settings":{"access":"none"}}` + "\n" + `{"kind":"model_error","status":500,"error":"x","retry":true}`))
	f.Add([]byte("{}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, err := ReadAudit(bytes.NewReader(data), "fuzz.jsonl")
		if err != nil {
			return
		}
		// Whatever a log says, replaying it ends, without a server, and never panics.
		for _, s := range Sessions(recs) {
			if s[0].Settings != nil && s[0].Settings.MaxSteps > 50 {
				continue
			}
			Replay(t.Context(), s)
		}
	})
}
