package tools

import (
	"encoding/json"
	"sort"
	"strings"
)

func quote(s string) string {
	data, _ := json.Marshal(s)
	return string(data)
}

func jsonUnmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }

func sortedKeys(m map[string]any) string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, ",")
}
