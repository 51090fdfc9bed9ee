package policy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
	"pgregory.net/rapid"
)

// schemaFile is the JSON Schema editors use for .agentverify.yaml (yaml-language-server,
// VS Code, JetBrains).
const schemaFile = "../docs/schema/agentverify.schema.json"

func compileSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	data, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", schemaFile, err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("schema.json")
	if err != nil {
		t.Fatalf("%s: %v", schemaFile, err)
	}
	return s
}

// validate checks a YAML policy against the schema, through JSON as editors do.
func validate(s *jsonschema.Schema, src []byte) error {
	var v any
	if err := yaml.Unmarshal(src, &v); err != nil {
		return err
	}
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return s.Validate(doc)
}

// examples returns every policy the project shows: the starter, the repository's own, and
// each YAML block of the README and docs that starts a policy.
func examples(t *testing.T) map[string][]byte {
	out := map[string][]byte{"starter": Starter()}
	own, err := os.ReadFile("../.agentverify.yaml")
	if err != nil {
		t.Fatal(err)
	}
	out[".agentverify.yaml"] = own
	block := regexp.MustCompile("(?s)```yaml\n(version: 1\n.*?)```")
	for _, doc := range []string{"../README.md", "../docs/design.md", "../docs/integrations.md", "../docs/security.md"} {
		data, err := os.ReadFile(doc)
		if err != nil {
			continue
		}
		for i, m := range block.FindAllSubmatch(data, -1) {
			out[fmt.Sprintf("%s#%d", doc, i+1)] = m[1]
		}
	}
	return out
}

// TestSchemaAcceptsEveryExample: every policy the project shows is valid for both the
// parser and the schema.
func TestSchemaAcceptsEveryExample(t *testing.T) {
	s := compileSchema(t)
	ex := examples(t)
	if len(ex) < 3 {
		t.Fatalf("only %d examples found", len(ex))
	}
	for name, src := range ex {
		if _, err := Parse(name, src); err != nil {
			t.Errorf("parser rejects %s: %v", name, err)
		}
		if err := validate(s, src); err != nil {
			t.Errorf("schema rejects %s: %v", name, err)
		}
	}
}

// leaves returns the dotted key paths of every scalar or list in a YAML mapping.
func leaves(prefix string, v any, out map[string]any) {
	m, ok := v.(map[string]any)
	if !ok || len(m) == 0 {
		out[prefix] = v
		return
	}
	for k, x := range m {
		p := k
		if prefix != "" {
			p = prefix + "." + k
		}
		leaves(p, x, out)
	}
}

// schemaLeaves returns the dotted key paths the schema's top-level objects define.
func schemaLeaves(t *testing.T) map[string]bool {
	data, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	var walk func(prefix string, node map[string]any)
	walk = func(prefix string, node map[string]any) {
		props, _ := node["properties"].(map[string]any)
		if len(props) == 0 {
			out[prefix] = true
			return
		}
		for k, sub := range props {
			p := k
			if prefix != "" {
				p = prefix + "." + k
			}
			walk(p, sub.(map[string]any))
		}
	}
	walk("", doc)
	return out
}

// TestSchemaCoversTheParser: the starter spells out every key the parser reads, and the
// schema defines exactly those keys.
func TestSchemaCoversTheParser(t *testing.T) {
	var v any
	if err := yaml.Unmarshal(Starter(), &v); err != nil {
		t.Fatal(err)
	}
	starter := map[string]any{}
	leaves("", v, starter)
	schema := schemaLeaves(t)
	var missing, extra []string
	for k := range starter {
		if !schema[k] {
			missing = append(missing, k)
		}
	}
	for k := range schema {
		if _, ok := starter[k]; !ok && !strings.HasPrefix(k, "overrides") {
			extra = append(extra, k)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing) > 0 || len(extra) > 0 {
		t.Errorf("schema and starter policy disagree: keys the schema lacks %v; keys only the schema has %v", missing, extra)
	}
}

// pick draws the starter's own value for a key most of the time (so that many generated
// policies are valid), and any value of the pool otherwise.
func pick(rt *rapid.T, key string, own any, pool []any) any {
	if rapid.IntRange(0, 5).Draw(rt, key+" random?") > 0 {
		return own
	}
	return rapid.SampledFrom(pool).Draw(rt, key+" value")
}

// TestSchemaAcceptsWhatTheParserAccepts is the property of the schema: over random
// policies built from the starter's keys with random values (and unknown keys), every
// policy the parser accepts, the schema accepts too, and an unknown key is refused by both.
func TestSchemaAcceptsWhatTheParserAccepts(t *testing.T) {
	s := compileSchema(t)
	var starter map[string]any
	if err := yaml.Unmarshal(Starter(), &starter); err != nil {
		t.Fatal(err)
	}
	values := []any{0, 1, 15, -1, 300000000, true, false, "go", "snake_case", "none", "exported", "5m", "90s", "0s",
		"x", "", []any{"**"}, []any{"vendor/**", "a/*.go"}, []any{"/abs"}, []any{"create", "delete"}, []any{"chmod"},
		map[string]any{}, nil, map[string]any{"style/*": "warning"}, map[string]any{"scope/x": "loud"}}
	accepted := 0
	rapid.Check(t, func(rt *rapid.T) {
		doc := map[string]any{"version": 1}
		for dim, body := range starter {
			if dim == "version" || !rapid.Bool().Draw(rt, "include "+dim) {
				continue
			}
			inner, ok := body.(map[string]any)
			if !ok || len(inner) == 0 {
				doc[dim] = pick(rt, dim, body, values)
				continue
			}
			m := map[string]any{}
			for k, v := range inner {
				if rapid.Bool().Draw(rt, dim+"."+k) {
					m[k] = pick(rt, dim+"."+k, v, values)
				}
			}
			unknown := rapid.IntRange(0, 9).Draw(rt, "unknown") == 0
			if unknown {
				m["bogus_key"] = 1
			}
			doc[dim] = m
		}
		src, err := yaml.Marshal(doc)
		if err != nil {
			rt.Fatal(err)
		}
		_, perr := Parse("p.yaml", src)
		serr := validate(s, src)
		if perr == nil {
			accepted++
			if serr != nil {
				rt.Fatalf("the parser accepts and the schema refuses:\n%s\nschema: %v", src, serr)
			}
		}
		if bytes.Contains(src, []byte("bogus_key")) && (perr == nil || serr == nil) {
			rt.Fatalf("an unknown key passed (parser err %v, schema err %v):\n%s", perr, serr, src)
		}
	})
	if accepted == 0 {
		t.Error("no generated policy was accepted: the property never tested the schema")
	}
}
