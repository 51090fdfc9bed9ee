package load

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestForget: a loader made to forget keeps no snapshot between checks (an overlaid
// check still re-checks the edit against the disk load it just made), and sees the errors.
func TestForget(t *testing.T) {
	dir := writeModule(t, module)
	l := New(Options{Forget: true})
	app := filepath.Join(dir, "app", "app.go")
	bad := strings.Replace(module["app/app.go"], "auth.VerifyToken(", "auth.VerifyTokne(", 1)
	for _, overlay := range []map[string][]byte{nil, {app: []byte(bad)}} {
		res, err := l.Check(context.Background(), Request{Dir: dir, Files: []string{app}, Overlay: overlay})
		if err != nil {
			t.Fatal(err)
		}
		if (overlay != nil) != (len(msgs(res)) > 0) {
			t.Errorf("overlay %v: errors=%v", overlay != nil, msgs(res))
		}
		if len(l.mods) != 0 {
			t.Errorf("overlay %v: %d snapshots kept", overlay != nil, len(l.mods))
		}
	}
}
