package python_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/internal/testkit/pyrighttest"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python"
)

// typo is one line of code with one misspelt name that has one obvious correct name.
type typo struct {
	code, want string
}

// typos are the misspellings models make, over real standard-library and third-party
// modules (requests, yaml: installed where the tests run): members of modules, of
// classes and of values of their types, from-imports, keywords and builtins.
var typos = []typo{
	// module members
	{"os.path.joinn('a')", "join"},
	{"os.path.exsits('a')", "exists"},
	{"os.path.basname('a')", "basename"},
	{"os.getcwdd()", "getcwd"},
	{"json.lods('x')", "loads"},
	{"collections.defaultdic(list)", "defaultdict"},
	{"subprocess.check_ouput(['ls'])", "check_output"},
	{"re.complie('x')", "compile"},
	{"itertools.chian([])", "chain"},
	{"logging.getLoger()", "getLogger"},
	{"math.sqr(2)", "sqrt"},
	{"time.sleeep(1)", "sleep"},
	{"sys.argvs", "argv"},
	{"shutil.copytre('a', 'b')", "copytree"},
	{"tempfile.mkdtmp()", "mkdtemp"},
	{"functools.lru_cach", "lru_cache"},
	{"typing.Optinal", "Optional"},
	{"hashlib.sha265()", "sha256"},
	{"base64.b64encod(b'')", "b64encode"},
	{"urllib.parse.urljion('a', 'b')", "urljoin"},
	{"string.ascii_lowecase", "ascii_lowercase"},
	{"argparse.ArgumentParsr()", "ArgumentParser"},
	{"dataclasses.dataclas", "dataclass"},
	{"random.randit(1, 2)", "randint"},
	{"os.environment", "environ"},
	{"asyncio.sleeep(1)", "sleep"},
	// from-imports
	{"from os.path import joinn", "join"},
	{"from collections import OrderedDic", "OrderedDict"},
	{"from typing import Lsit", "List"},
	{"from datetime import datettime", "datetime"},
	{"from pathlib import Paht", "Path"},
	// members of classes
	{"datetime.datetime.nw()", "now"},
	{"datetime.datetime.fromisoformt('x')", "fromisoformat"},
	{"datetime.date.todya()", "today"},
	{"pathlib.Path.cwdd()", "cwd"},
	{"str.joinn", "join"},
	// members of values
	{"pathlib.Path('.').exist()", "exists"},
	{"'x'.uper()", "upper"},
	{"[].apend(1)", "append"},
	{"{}.setdefualt('a', 1)", "setdefault"},
	{"open('f').readlins()", "readlines"},
	{"re.compile('x').serach('y')", "search"},
	{"datetime.datetime.now().strftme('%Y')", "strftime"},
	{"datetime.timedelta(1).total_second()", "total_seconds"},
	{"collections.Counter().most_comon()", "most_common"},
	{"logging.getLogger().warnng('x')", "warning"},
	{"threading.Thread().strat()", "start"},
	{"argparse.ArgumentParser().add_argment('x')", "add_argument"},
	{"subprocess.run([]).stdoutt", "stdout"},
	{"b'x'.decod()", "decode"},
	// third-party modules and their values
	{"requests.gett('u')", "get"},
	{"requests.Sesion()", "Session"},
	{"requests.get('u').jsn()", "json"},
	{"requests.get('u').raise_for_statu()", "raise_for_status"},
	{"yaml.safe_laod('x')", "safe_load"},
	{"yaml.dumpp({})", "dump"},
	// keywords
	{"json.dumps({}, indnt=2)", "indent"},
	{"subprocess.run([], capture_ouput=True)", "capture_output"},
	{"open('f', encodng='utf8')", "encoding"},
	{"sorted([], revrse=True)", "reverse"},
	{"print('x', flsh=True)", "flush"},
	// builtins
	{"lenn([])", "len"},
	{"prnt('x')", "print"},
	{"isinstanse(1, int)", "isinstance"},
	{"x = Tru", "True"},
	// added after the fixes above, unseen by them
	{"os.path.splittext('a')", "splitext"},
	{"shutil.rmtre('a')", "rmtree"},
	{"json.dumpss({})", "dumps"},
	{"re.findal('a', 'b')", "findall"},
	{"collections.namedtupel('A', [])", "namedtuple"},
	{"datetime.timedelta(dayz=1)", "days"},
	{"uuid.uuid44()", "uuid4"},
	{"csv.DictReadr", "DictReader"},
	{"io.StringIo()", "StringIO"},
	{"'x'.strp()", "strip"},
	{"[].extnd([])", "extend"},
	{"{}.itmes()", "items"},
	{"pathlib.Path('.').mkdirs()", "mkdir"},
	{"os.makedir('a')", "makedirs"},
	{"typing.Dictt", "Dict"},
	{"logging.basicConfg()", "basicConfig"},
	{"yaml.safe_dumpp({})", "safe_dump"},
	{"enumerat([])", "enumerate"},
	{"from collections import Countr", "Counter"},
	{"requests.Respons", "Response"},
}

// TestDidYouMeanTypos measures how many misspellings that have one obvious correct name
// get it as the first did-you-mean (issue #24: under half did), and holds the rate.
func TestDidYouMeanTypos(t *testing.T) {
	if testing.Short() {
		t.Skip("runs pyright over a file of typos: not with -short")
	}
	pyrighttest.Require(t)
	header := "import os\nimport os.path\nimport json\nimport collections\nimport subprocess\nimport re\nimport datetime\n" +
		"import itertools\nimport logging\nimport math\nimport time\nimport sys\nimport shutil\nimport tempfile\n" +
		"import functools\nimport typing\nimport hashlib\nimport base64\nimport urllib.parse\nimport string\n" +
		"import argparse\nimport dataclasses\nimport random\nimport asyncio\nimport pathlib\nimport threading\n" +
		"import requests\nimport yaml\nimport uuid\nimport csv\nimport io\n\n"
	first := strings.Count(header, "\n") + 1
	var b strings.Builder
	b.WriteString(header)
	for _, ty := range typos {
		b.WriteString(ty.code + "\n")
	}
	root := tree(t, map[string]string{
		"pyproject.toml": "[project]\nname = \"app\"\nrequires-python = \">=3.9\"\ndependencies = [\"requests\", \"pyyaml\"]\n",
		"app.py":         "",
	})
	ps, err := python.New().(lang.Resolver).Resolve(proposal(root, map[string]string{"app.py": b.String()}))
	if err != nil {
		t.Fatal(err)
	}
	byLine := map[int][]lang.Problem{}
	for _, p := range ps {
		byLine[p.Location.Line] = append(byLine[p.Location.Line], p)
	}
	var missed []string
	for i, ty := range typos {
		if !suggests(byLine[first+i], ty.want) {
			missed = append(missed, fmt.Sprintf("%s (want %s): %s", ty.code, ty.want, describe(byLine[first+i])))
		}
	}
	got := len(typos) - len(missed)
	t.Logf("did-you-mean names the right name first for %d of %d typos (%.0f%%)", got, len(typos), 100*float64(got)/float64(len(typos)))
	if len(missed) > 0 {
		t.Errorf("no right did-you-mean:\n  %s", strings.Join(missed, "\n  "))
	}
}

// suggests reports whether one of ps offers want as its first did-you-mean.
func suggests(ps []lang.Problem, want string) bool {
	for _, p := range ps {
		if s, ok := strings.CutPrefix(p.Suggestion, "did you mean "); ok {
			first, _, _ := strings.Cut(strings.TrimSuffix(s, "?"), ", ")
			if first == want || strings.HasSuffix(first, "."+want) {
				return true
			}
		}
	}
	return false
}

func describe(ps []lang.Problem) string {
	if len(ps) == 0 {
		return "no finding"
	}
	var out []string
	for _, p := range ps {
		out = append(out, fmt.Sprintf("%s: %s [%s]", p.Kind, p.Message, p.Suggestion))
	}
	return strings.Join(out, "; ")
}
