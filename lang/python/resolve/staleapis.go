package resolve

// staleAPI is an API its own documentation deprecates: the standard library's "Deprecated
// since version X" and removals ("What's New in Python 3.x", PEP 594, PEP 632), or a
// well-known library's deprecation of itself.
type staleAPI struct {
	// since is the Python version that deprecates it; lib names a library's own
	// deprecation instead ("setuptools 67.5"), which no Python version bounds.
	since, lib string
	// removed is the Python version that removed it, "" while it exists.
	removed string
	// use is what the deprecation note says to use instead; needs the Python version
	// that replacement needs ("" for any).
	use, needs string
	// rename is the replacement when it is a plain rename of the last name (the fix);
	// whole replaces the whole expression instead (typing.List → list).
	rename string
	whole  bool
	// pinned entries are reported only when requires-python states a floor: without
	// one, whether their replacement exists is unknown (typing.List → list[int] needs 3.9).
	pinned bool
}

// staleModules are deprecated and removed standard-library modules (and pkg_resources),
// by dotted name; importing one, or a module below it, is a use.
func staleModules() map[string]staleAPI {
	pep594 := func(use string) staleAPI { return staleAPI{since: "3.11", removed: "3.13", use: use} }
	return map[string]staleAPI{
		"imp":                    {since: "3.4", removed: "3.12", use: "importlib (importlib.util.find_spec, importlib.import_module, importlib.reload)"},
		"distutils":              {since: "3.10", removed: "3.12", use: "setuptools for building, sysconfig for paths, shutil and subprocess for files and commands, packaging.version for versions (PEP 632)"},
		"asynchat":               {since: "3.6", removed: "3.12", use: "asyncio"},
		"asyncore":               {since: "3.6", removed: "3.12", use: "asyncio"},
		"smtpd":                  {since: "3.6", removed: "3.12", use: "the aiosmtpd package"},
		"lib2to3":                {since: "3.11", removed: "3.13", use: "a parser that reads current syntax (ast, libcst, parso)"},
		"tkinter.tix":            {since: "3.6", removed: "3.13", use: "tkinter.ttk"},
		"sre_compile":            {since: "3.11", use: "re"},
		"sre_constants":          {since: "3.11", use: "re"},
		"sre_parse":              {since: "3.11", use: "re"},
		"typing.io":              {since: "3.8", removed: "3.12", use: "typing (typing.IO, typing.TextIO, typing.BinaryIO)"},
		"typing.re":              {since: "3.8", removed: "3.12", use: "typing.Pattern and typing.Match, or re.Pattern and re.Match"},
		"xml.etree.cElementTree": {since: "3.3", removed: "3.9", use: "xml.etree.ElementTree"},
		"formatter":              {since: "3.4", removed: "3.10", use: "your own formatting code"},
		"parser":                 {since: "3.9", removed: "3.10", use: "ast"},
		"symbol":                 {since: "3.9", removed: "3.10", use: "ast"},
		"binhex":                 {since: "3.9", removed: "3.11", use: "base64 or binascii"},
		"aifc":                   pep594("a maintained audio library (soundfile, pydub)"),
		"audioop":                pep594("a maintained audio library (numpy, pydub)"),
		"cgi":                    pep594("urllib.parse.parse_qsl for query strings, email.message for multipart bodies, html.escape for escaping (PEP 594)"),
		"cgitb":                  pep594("the logging or traceback module"),
		"chunk":                  pep594("your own reader of the format"),
		"crypt":                  pep594("hashlib, or the passlib or bcrypt packages"),
		"imghdr":                 pep594("the filetype or Pillow package"),
		"mailcap":                pep594("mimetypes"),
		"msilib":                 pep594("a maintained MSI tool"),
		"nis":                    pep594("a maintained NIS client"),
		"nntplib":                pep594("a maintained NNTP client"),
		"ossaudiodev":            pep594("a maintained audio library"),
		"pipes":                  pep594("subprocess, and shlex.quote for quoting"),
		"sndhdr":                 pep594("the filetype package"),
		"spwd":                   pep594("the python-pam package"),
		"sunau":                  pep594("a maintained audio library"),
		"telnetlib":              pep594("the telnetlib3 package, or asyncio streams"),
		"uu":                     pep594("base64"),
		"xdrlib":                 pep594("struct"),
		"pkg_resources":          {lib: "setuptools 67.5", use: "importlib.metadata for distributions and entry points, importlib.resources for package data, packaging for versions and requirements", needs: "3.9"},
	}
}

// staleNames are deprecated and removed functions, classes, constants and methods of the
// standard library, by qualified name (a method as module.Class.method).
func staleNames() map[string]staleAPI {
	abc := func(name string) staleAPI {
		return staleAPI{since: "3.3", removed: "3.10", use: "collections.abc." + name}
	}
	alias := func(builtin string) staleAPI {
		return staleAPI{since: "3.9", use: builtin + " (subscriptable since Python 3.9, PEP 585)", needs: "3.9", rename: builtin, whole: true, pinned: true}
	}
	out := map[string]staleAPI{
		"datetime.datetime.utcnow":                  {since: "3.12", use: "datetime.datetime.now(datetime.timezone.utc): a timezone-aware datetime"},
		"datetime.datetime.utcfromtimestamp":        {since: "3.12", use: "datetime.datetime.fromtimestamp(ts, datetime.timezone.utc): a timezone-aware datetime"},
		"asyncio.coroutine":                         {since: "3.8", removed: "3.11", use: "async def"},
		"asyncio.Task.current_task":                 {since: "3.7", removed: "3.9", use: "asyncio.current_task()"},
		"asyncio.Task.all_tasks":                    {since: "3.7", removed: "3.9", use: "asyncio.all_tasks()"},
		"asyncio.iscoroutinefunction":               {since: "3.14", use: "inspect.iscoroutinefunction"},
		"logging.warn":                              {since: "3.3", use: "logging.warning", rename: "warning"},
		"logging.Logger.warn":                       {since: "3.3", use: "Logger.warning", rename: "warning"},
		"inspect.getargspec":                        {since: "3.0", removed: "3.11", use: "inspect.signature or inspect.getfullargspec"},
		"inspect.formatargspec":                     {since: "3.5", removed: "3.11", use: "inspect.signature"},
		"platform.linux_distribution":               {since: "3.5", removed: "3.8", use: "the distro package, or platform.freedesktop_os_release (Python 3.10)"},
		"platform.dist":                             {since: "3.5", removed: "3.8", use: "the distro package, or platform.freedesktop_os_release (Python 3.10)"},
		"time.clock":                                {since: "3.3", removed: "3.8", use: "time.perf_counter (or time.process_time for CPU time)", rename: "perf_counter"},
		"cgi.escape":                                {since: "3.2", removed: "3.8", use: "html.escape"},
		"cgi.parse_qs":                              {since: "3.2", removed: "3.8", use: "urllib.parse.parse_qs"},
		"cgi.parse_qsl":                             {since: "3.2", removed: "3.8", use: "urllib.parse.parse_qsl"},
		"base64.encodestring":                       {since: "3.1", removed: "3.9", use: "base64.encodebytes", rename: "encodebytes"},
		"base64.decodestring":                       {since: "3.1", removed: "3.9", use: "base64.decodebytes", rename: "decodebytes"},
		"fractions.gcd":                             {since: "3.5", removed: "3.9", use: "math.gcd"},
		"sys.setcheckinterval":                      {since: "3.2", removed: "3.9", use: "sys.setswitchinterval"},
		"sys.getcheckinterval":                      {since: "3.2", removed: "3.9", use: "sys.getswitchinterval"},
		"threading.currentThread":                   {since: "3.10", use: "threading.current_thread", rename: "current_thread"},
		"threading.activeCount":                     {since: "3.10", use: "threading.active_count", rename: "active_count"},
		"threading.Thread.isAlive":                  {since: "3.8", removed: "3.9", use: "Thread.is_alive", rename: "is_alive"},
		"threading.Thread.setDaemon":                {since: "3.10", use: "the daemon attribute (thread.daemon = True)"},
		"threading.Thread.isDaemon":                 {since: "3.10", use: "the daemon attribute"},
		"threading.Event.isSet":                     {since: "3.10", use: "Event.is_set", rename: "is_set"},
		"threading.Condition.notifyAll":             {since: "3.10", use: "Condition.notify_all", rename: "notify_all"},
		"configparser.SafeConfigParser":             {since: "3.2", removed: "3.12", use: "configparser.ConfigParser", rename: "ConfigParser"},
		"configparser.RawConfigParser.readfp":       {since: "3.2", removed: "3.12", use: "read_file", rename: "read_file"},
		"ssl.wrap_socket":                           {since: "3.7", removed: "3.12", use: "ssl.SSLContext.wrap_socket (ssl.create_default_context().wrap_socket(sock, server_hostname=host))"},
		"ssl.match_hostname":                        {since: "3.7", removed: "3.12", use: "the hostname check of SSLContext (check_hostname, server_hostname)"},
		"ssl.PROTOCOL_TLS":                          {since: "3.10", use: "ssl.PROTOCOL_TLS_CLIENT or ssl.PROTOCOL_TLS_SERVER"},
		"ssl.PROTOCOL_SSLv23":                       {since: "3.6", use: "ssl.PROTOCOL_TLS_CLIENT or ssl.PROTOCOL_TLS_SERVER"},
		"importlib.find_loader":                     {since: "3.4", removed: "3.12", use: "importlib.util.find_spec"},
		"pkgutil.find_loader":                       {since: "3.12", removed: "3.14", use: "importlib.util.find_spec"},
		"pkgutil.get_loader":                        {since: "3.12", removed: "3.14", use: "importlib.util.find_spec"},
		"locale.getdefaultlocale":                   {since: "3.11", use: "locale.setlocale(locale.LC_ALL, ''), locale.getlocale, and locale.getencoding (Python 3.11) for the encoding"},
		"locale.format":                             {since: "3.7", removed: "3.12", use: "locale.format_string", rename: "format_string"},
		"ast.Num":                                   {since: "3.8", removed: "3.14", use: "ast.Constant", rename: "Constant"},
		"ast.Str":                                   {since: "3.8", removed: "3.14", use: "ast.Constant", rename: "Constant"},
		"ast.Bytes":                                 {since: "3.8", removed: "3.14", use: "ast.Constant", rename: "Constant"},
		"ast.NameConstant":                          {since: "3.8", removed: "3.14", use: "ast.Constant", rename: "Constant"},
		"ast.Ellipsis":                              {since: "3.8", removed: "3.14", use: "ast.Constant", rename: "Constant"},
		"tempfile.mktemp":                           {since: "2.3", use: "tempfile.mkstemp or tempfile.NamedTemporaryFile (mktemp's name can be taken before the file is made)"},
		"codecs.open":                               {since: "3.14", use: "the builtin open"},
		"abc.abstractproperty":                      {since: "3.3", use: "@property stacked on @abc.abstractmethod"},
		"abc.abstractclassmethod":                   {since: "3.3", use: "@classmethod stacked on @abc.abstractmethod"},
		"abc.abstractstaticmethod":                  {since: "3.3", use: "@staticmethod stacked on @abc.abstractmethod"},
		"unittest.makeSuite":                        {since: "3.11", removed: "3.13", use: "unittest.TestLoader().loadTestsFromTestCase"},
		"unittest.findTestCases":                    {since: "3.11", removed: "3.13", use: "unittest.TestLoader().loadTestsFromModule"},
		"unittest.getTestCaseNames":                 {since: "3.11", removed: "3.13", use: "unittest.TestLoader().getTestCaseNames"},
		"re.template":                               {since: "3.11", removed: "3.13", use: "re.compile"},
		"typing.Text":                               {since: "3.11", use: "str", rename: "str", whole: true, pinned: true},
		"typing.ByteString":                         {since: "3.9", removed: "3.14", use: "collections.abc.Buffer (Python 3.12) or bytes | bytearray | memoryview"},
		"typing.List":                               alias("list"),
		"typing.Dict":                               alias("dict"),
		"typing.Set":                                alias("set"),
		"typing.FrozenSet":                          alias("frozenset"),
		"typing.Tuple":                              alias("tuple"),
		"typing.Type":                               alias("type"),
		"xml.etree.ElementTree.Element.getchildren": {since: "3.2", removed: "3.9", use: "list(element)"},
		"xml.etree.ElementTree.Element.getiterator": {since: "3.2", removed: "3.9", use: "element.iter()", rename: "iter"},
	}
	for _, n := range []string{"Awaitable", "Coroutine", "AsyncIterable", "AsyncIterator", "AsyncGenerator",
		"Hashable", "Iterable", "Iterator", "Generator", "Reversible", "Sized", "Container", "Callable",
		"Collection", "Set", "MutableSet", "Mapping", "MutableMapping", "MappingView", "KeysView",
		"ItemsView", "ValuesView", "Sequence", "MutableSequence", "ByteString"} {
		out["collections."+n] = abc(n)
	}
	return out
}

// staleMethod is a deprecated method whose name tells it apart whatever the receiver's
// type, on the receivers named.
type staleMethod struct {
	staleAPI
	// class names the method for messages; receivers, when set, are the receiver names
	// it is reported on (self for TestCase's assertion aliases, loggers for warn).
	class     string
	receivers []string
}

// staleMethods are methods by name: calls the resolver cannot type (self.assertEquals in
// a TestCase, thread.isAlive()), reported unless the file defines a function of the name.
func staleMethods() map[string]staleMethod {
	testCase := func(use string) staleMethod {
		return staleMethod{staleAPI{since: "3.2", removed: "3.12", use: "self." + use, rename: use}, "unittest.TestCase", []string{"self"}}
	}
	return map[string]staleMethod{
		"assertEquals":             testCase("assertEqual"),
		"failUnlessEqual":          testCase("assertEqual"),
		"assertNotEquals":          testCase("assertNotEqual"),
		"failIfEqual":              testCase("assertNotEqual"),
		"assertAlmostEquals":       testCase("assertAlmostEqual"),
		"failUnlessAlmostEqual":    testCase("assertAlmostEqual"),
		"assertNotAlmostEquals":    testCase("assertNotAlmostEqual"),
		"failIfAlmostEqual":        testCase("assertNotAlmostEqual"),
		"assert_":                  testCase("assertTrue"),
		"failUnless":               testCase("assertTrue"),
		"failIf":                   testCase("assertFalse"),
		"failUnlessRaises":         testCase("assertRaises"),
		"assertRaisesRegexp":       testCase("assertRaisesRegex"),
		"assertRegexpMatches":      testCase("assertRegex"),
		"assertNotRegexpMatches":   testCase("assertNotRegex"),
		"assertDictContainsSubset": {staleAPI{since: "3.2", removed: "3.12", use: "self.assertLessEqual(expected.items(), actual.items())"}, "unittest.TestCase", []string{"self"}},
		"isAlive":                  {staleAPI{since: "3.8", removed: "3.9", use: "is_alive", rename: "is_alive"}, "threading.Thread", nil},
		"notifyAll":                {staleAPI{since: "3.10", use: "notify_all", rename: "notify_all"}, "threading.Condition", nil},
		"getchildren":              {staleAPI{since: "3.2", removed: "3.9", use: "list(element)"}, "xml.etree.ElementTree.Element", nil},
		"getiterator":              {staleAPI{since: "3.2", removed: "3.9", use: "iter", rename: "iter"}, "xml.etree.ElementTree.Element", nil},
		"readfp":                   {staleAPI{since: "3.2", removed: "3.12", use: "read_file", rename: "read_file"}, "configparser.RawConfigParser", nil},
		"warn":                     {staleAPI{since: "3.3", use: "warning", rename: "warning"}, "logging.Logger", []string{"logger", "log", "_logger", "_log", "LOGGER", "LOG"}},
	}
}
