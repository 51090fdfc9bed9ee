package style

import (
	"testing"

	"github.com/agentverify/agentverify/lang"
)

func TestGoName(t *testing.T) {
	tests := map[string]string{
		"userId":       "userID",
		"HttpServer":   "HTTPServer",
		"user_id":      "userID",
		"Foo_bar":      "FooBar",
		"jsonApiUrl":   "jsonAPIURL",
		"ServeHTTP":    "ServeHTTP",
		"userIds":      "userIDs",
		"x":            "x",
		"version_1_2":  "version1_2",
		"__private":    "_Private",    // as golint
		"Utf8Decoder":  "Utf8Decoder", // as golint: "Utf" ends at the digit
		"ÜberId":       "ÜberID",
		"already_fine": "alreadyFine",
	}
	for in, want := range tests {
		if got := goName(in); got != want {
			t.Errorf("goName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestConventions(t *testing.T) {
	tests := []struct {
		conv   string
		kind   lang.IdentKind
		name   string
		should string // "" = fine
		msg    string
	}{
		{"go", lang.IdentVar, "userId", "userID", "var userId should be userID"},
		{"go", lang.IdentType, "HttpServer", "HTTPServer", "type HttpServer should be HTTPServer"},
		{"go", lang.IdentParam, "user_name", "userName", "don't use underscores in Go names; parameter user_name should be userName"},
		{"go", lang.IdentConst, "MAX_SIZE", "MaxSize", "don't use ALL_CAPS in Go names; const MAX_SIZE should be MaxSize"},
		{"go", lang.IdentConst, "kTimeout", "timeout", "don't use leading k in Go names; const kTimeout should be timeout"},
		{"go", lang.IdentPackage, "my_pkg", "mypkg", "don't use an underscore in package name"},
		{"go", lang.IdentPackage, "myPkg", "mypkg", "don't use MixedCaps in package name; myPkg should be mypkg"},
		{"go", lang.IdentPackage, "mypkg_test", "", ""},
		{"go", lang.IdentVar, "LastInsertId", "", ""},
		{"go", lang.IdentVar, "userID", "", ""},
		{"go", lang.IdentVar, "i", "", ""},
		{"go", lang.IdentField, "type_", "", ""},
		{"go", lang.IdentVar, "types_", "types", "don't use underscores in Go names; var types_ should be types"},
		{"typescript", lang.IdentVar, "userName", "", ""},
		{"typescript", lang.IdentConst, "MAX_RETRIES", "", ""},
		{"typescript", lang.IdentConst, "DefaultTheme", "", ""},
		{"typescript", lang.IdentVar, "__dirname", "", ""},
		{"typescript", lang.IdentVar, "$el", "", ""},
		{"typescript", lang.IdentParam, "_unused", "", ""},
		{"typescript", lang.IdentFunc, "UserCard", "", ""},
		{"typescript", lang.IdentVar, "v1_2", "", ""},
		{"typescript", lang.IdentVar, "user_name", "userName", "variable user_name is not camelCase; it should be userName"},
		{"typescript", lang.IdentParam, "max_len", "maxLen", "parameter max_len is not camelCase; it should be maxLen"},
		{"typescript", lang.IdentMethod, "GetUser", "getUser", "method GetUser is not camelCase; it should be getUser"},
		{"typescript", lang.IdentType, "userProfile", "UserProfile", "type userProfile is not PascalCase; it should be UserProfile"},
		{"typescript", lang.IdentType, "User_Profile", "UserProfile", "type User_Profile is not PascalCase; it should be UserProfile"},
		{"typescript", lang.IdentField, "_private_field", "_privateField", "property _private_field is not camelCase; it should be _privateField"},
		{"lisp-case", lang.IdentFunc, "make-thing", "", ""},
		{"lisp-case", lang.IdentVar, "*default-port*", "", ""},
		{"lisp-case", lang.IdentFunc, "makeThing", "make-thing", "func makeThing is not lisp-case; it should be make-thing"},
		{"lisp-case", lang.IdentVar, "*default_port*", "*default-port*", "var *default_port* is not lisp-case; it should be *default-port*"},
		{"snake_case", lang.IdentFunc, "make_thing", "", ""},
		{"snake_case", lang.IdentConst, "MAX_SIZE", "", ""},
		{"snake_case", lang.IdentType, "ThingMaker", "", ""},
		{"snake_case", lang.IdentFunc, "makeThing", "make_thing", "func makeThing is not snake_case; it should be make_thing"},
		{"snake_case", lang.IdentVar, "_HTTPPort", "_http_port", "var _HTTPPort is not snake_case; it should be _http_port"},
		{"camelCase", lang.IdentVar, "makeThing", "", ""},
		{"camelCase", lang.IdentType, "ThingMaker", "", ""},
		{"camelCase", lang.IdentVar, "make_thing", "makeThing", "var make_thing is not camelCase; it should be makeThing"},
		{"camelCase", lang.IdentType, "Thing_maker", "ThingMaker", "type Thing_maker is not camelCase; it should be ThingMaker"},
	}
	for _, tt := range tests {
		msg, should := conventions[tt.conv](lang.Ident{Name: tt.name, Kind: tt.kind})
		if msg != tt.msg || should != tt.should {
			t.Errorf("%s %s %q: got (%q, %q), want (%q, %q)", tt.conv, tt.kind, tt.name, msg, should, tt.msg, tt.should)
		}
	}
}

func TestSplitWords(t *testing.T) {
	got := splitWords("HTTPServer_v2-final")
	want := []string{"HTTP", "Server", "v2", "final"}
	if len(got) != len(want) {
		t.Fatalf("got %q", got)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("got %q, want %q", got, want)
		}
	}
}
