"""A small evaluator for the Groovy that Nextflow modules put in their script:
and stub: blocks, in the input code of nf-test's `process` blocks and in
`ext.args` settings, so tests/packaging/module_scripts.py can render a
module's command exactly as Nextflow would and run it without Nextflow.

What it evaluates:
  - literals: 'strings', "GStrings" and triple-quoted ones with ${expr} and
    $name.path interpolation and Groovy's escapes (\\ \$ \" \' \n \t, and a
    backslash before a newline joins the lines), numbers, true/false/null,
    lists [a, b], maps [k: v] and [:];
  - names, properties (a.b, a?.b), indexing (a[i]), calls f(x), a.m(x),
    named arguments (f(x, k: v)) and Groovy's paren-less call (error "...");
  - operators ! - * / % + - == != < <= > >= in !in && || ?: and a ? b : c;
  - closures { expr } and { a, b -> expr } (one expression; evaluated when
    called), called by name as f(x) too;
  - ranges a..b and a..<b of integers (as lists);
  - statements: def x = e, x = e, a[i] = e, if/else if/else blocks, and
    expression statements; the value of a block is its last expression's,
    as a Nextflow script: block's command is its last string.
The methods it knows are listed in METHODS and on NfPath; anything else
(loops, classes, regular expressions, other methods) raises Unsupported, so
a module that uses more Groovy makes the test fail, never pass silently.
Values are Python's: None, bool, int, float, str, list, dict; staged input
files are NfPath, whose text is the name Nextflow stages them under.
"""
import re

__all__ = ["Unsupported", "GroovyError", "ProcessError", "NfPath", "NfPathList", "Closure", "StrictMap", "evaluate",
           "run_block", "to_text", "truth", "tokenize", "Parser", "evaluate_node", "Env"]


class Unsupported(Exception):
    """Groovy this evaluator does not implement."""


class GroovyError(Exception):
    """Code that Groovy itself would refuse (syntax, unknown name)."""


class ProcessError(Exception):
    """The code called error(...), as a module does to refuse a run."""


class NfPath:
    """An input file: `path` is where it is, `name` what it is staged as."""

    def __init__(self, path):
        import os
        self.path = os.path.normpath(str(path))
        self.name = os.path.basename(self.path)

    def __repr__(self):
        return f"NfPath({self.path!r})"

    def prop(self, name):
        base = self.name
        simple = base.split(".")[0]
        stem = base.rsplit(".", 1)[0] if "." in base else base
        ext = base.rsplit(".", 1)[1] if "." in base else ""
        props = {"name": base, "baseName": stem, "simpleName": simple, "extension": ext}
        if name not in props:
            raise Unsupported(f"file property .{name}")
        return props[name]


class NfPathList(list):
    """Several files given to one path input: Nextflow writes them separated by spaces."""


class StrictMap(dict):
    """An object with fixed properties (task, workflow): reading any other is an
    error here, where Groovy would give null or fail, so an unexpected one
    never renders as "null" unnoticed."""

    def __init__(self, label, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.label = label


class Closure:
    def __init__(self, body, env, params=()):
        self.body, self.env, self.params = body, env, tuple(params)

    def call(self, *args):
        """The closure's value, its parameters bound to args (Groovy lets a
        closure of no parameters be called with none)."""
        if len(args) != len(self.params):
            raise GroovyError(f"closure of {len(self.params)} parameters called with {len(args)}")
        env = Env(dict(self.env.names, **dict(zip(self.params, args))), self.env.functions)
        return evaluate_node(self.body, env)


# ---------------------------------------------------------------- text of values

def to_text(v):
    """Groovy's toString of a value, as a GString inserts it."""
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, NfPath):
        return v.name
    if isinstance(v, NfPathList):
        return " ".join(to_text(x) for x in v)
    if isinstance(v, list):
        return "[" + ", ".join(to_text(x) for x in v) + "]"
    if isinstance(v, dict):
        return "[:]" if not v else "[" + ", ".join(f"{to_text(k)}:{to_text(x)}" for k, x in v.items()) + "]"
    if isinstance(v, float):
        return repr(v)
    return str(v)


def truth(v):
    """Groovy truth."""
    if isinstance(v, (list, dict, str)):
        return len(v) > 0
    if isinstance(v, NfPath):
        return True
    return bool(v)


# ---------------------------------------------------------------- tokens

_PUNCT = ["..<", "..", "->", "?.", "?:", "==", "!=", "<=", ">=", "&&", "||", "!in",
          "(", ")", "[", "]", "{", "}", ",", ":", ".", "?", "!", "+", "-", "*", "/", "%", "<", ">", "=", ";"]
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMBER = re.compile(r"[0-9]+(\.[0-9]+)?")


class Tok:
    def __init__(self, kind, value, line, pos=0, end=0):
        self.kind, self.value, self.line, self.pos, self.end = kind, value, line, pos, end

    def __repr__(self):
        return f"{self.kind}:{self.value!r}"


def _read_escape(src, i):
    """The text of the escape starting at src[i] == '\\' and the index after it."""
    c = src[i + 1] if i + 1 < len(src) else ""
    table = {"\\": "\\", "$": "$", '"': '"', "'": "'", "n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f"}
    if c in table:
        return table[c], i + 2
    if c == "\n":
        return "", i + 2
    raise GroovyError(f"unknown escape \\{c}")


def _gstring(src, i, delim, line):
    """Parses a double-quoted (or triple) string from src[i] (after the opening
    delimiter): returns (parts, index after it), parts being str or ('expr', source)."""
    parts, buf = [], []
    while True:
        if i >= len(src):
            raise GroovyError(f"line {line}: string not closed")
        if src.startswith(delim, i):
            break
        c = src[i]
        if c == "\n" and len(delim) == 1:
            raise GroovyError(f"line {line}: newline in a one-line string")
        if c == "\\":
            text, i = _read_escape(src, i)
            buf.append(text)
        elif c == "$":
            if src.startswith("${", i):
                depth, j = 1, i + 2
                while depth:
                    if j >= len(src):
                        raise GroovyError(f"line {line}: ${{ not closed")
                    if src[j] == "{":
                        depth += 1
                    elif src[j] == "}":
                        depth -= 1
                    elif src[j] in "'\"":
                        q = src[j]
                        j += 1
                        while j < len(src) and src[j] != q:
                            j += 2 if src[j] == "\\" else 1
                    j += 1
                parts.append("".join(buf))
                buf = []
                parts.append(("expr", src[i + 2:j - 1]))
                i = j
            else:
                m = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*").match(src, i + 1)
                if not m:
                    raise GroovyError(f"line {line}: '$' not followed by a name or {{ (write \\$)")
                parts.append("".join(buf))
                buf = []
                parts.append(("expr", m.group(0)))
                i = m.end()
        else:
            buf.append(c)
            i += 1
    parts.append("".join(buf))
    return [p for p in parts if p != ""], i + len(delim)


def _sstring(src, i, delim, line):
    buf = []
    while True:
        if i >= len(src):
            raise GroovyError(f"line {line}: string not closed")
        if src.startswith(delim, i):
            return "".join(buf), i + len(delim)
        if src[i] == "\\":
            text, i = _read_escape(src, i)
            buf.append(text)
        else:
            buf.append(src[i])
            i += 1


def tokenize(src):
    toks, i, line = [], 0, 1
    if src.startswith("#!"):  # a script's shebang line
        i = src.find("\n") if "\n" in src else len(src)
    while i < len(src):
        c = src[i]
        if c == "\n":
            toks.append(Tok("nl", "\n", line, i, i + 1))
            line += 1
            i += 1
        elif c in " \t\r":
            i += 1
        elif src.startswith("//", i):
            while i < len(src) and src[i] != "\n":
                i += 1
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            if j < 0:
                raise GroovyError(f"line {line}: comment not closed")
            line += src.count("\n", i, j)
            i = j + 2
        elif src.startswith('"""', i) or c == '"':
            delim = '"""' if src.startswith('"""', i) else '"'
            parts, j = _gstring(src, i + len(delim), delim, line)
            toks.append(Tok("gstr", parts, line, i, j))
            line += src.count("\n", i, j)
            i = j
        elif src.startswith("'''", i) or c == "'":
            delim = "'''" if src.startswith("'''", i) else "'"
            text, j = _sstring(src, i + len(delim), delim, line)
            toks.append(Tok("str", text, line, i, j))
            line += src.count("\n", i, j)
            i = j
        elif _IDENT.match(src, i):
            m = _IDENT.match(src, i)
            toks.append(Tok("id", m.group(0), line, i, m.end()))
            i = m.end()
        elif _NUMBER.match(src, i):
            m = _NUMBER.match(src, i)
            toks.append(Tok("num", float(m.group(0)) if m.group(1) else int(m.group(0)), line, i, m.end()))
            i = m.end()
        else:
            for p in _PUNCT:
                if src.startswith(p, i):
                    if p == "!in" and _IDENT.match(src, i + 1) and _IDENT.match(src, i + 1).group(0) != "in":
                        continue
                    toks.append(Tok("op", p, line, i, i + len(p)))
                    i += len(p)
                    break
            else:
                raise Unsupported(f"line {line}: character {c!r}")
    toks.append(Tok("end", None, line, len(src), len(src)))
    return toks


# ---------------------------------------------------------------- parser (to tuples)

_CONTINUE_AFTER_NL = {"?", ":", "?:", ".", "?.", "&&", "||"}
_BINARY = [("||",), ("&&",), ("==", "!=", "<", "<=", ">", ">=", "in", "!in"), ("..", "..<"), ("+", "-"),
           ("*", "/", "%")]


class Parser:
    def __init__(self, src):
        self.toks = tokenize(src)
        self.i = 0
        self.depth = 0  # inside (), [] newlines do not end anything

    def peek(self, skip_nl=False):
        j = self.i
        while skip_nl and self.toks[j].kind == "nl":
            j += 1
        return self.toks[j]

    def next(self):
        t = self.toks[self.i]
        self.i += 1
        return t

    def skip_nl(self):
        while self.toks[self.i].kind == "nl":
            self.i += 1

    def at(self, value, skip_nl=False):
        t = self.peek(skip_nl)
        return t.kind in ("op", "id") and t.value == value

    def expect(self, value):
        self.skip_nl() if self.depth else None
        t = self.next()
        if t.value != value or t.kind not in ("op", "id"):
            raise GroovyError(f"line {t.line}: expected {value!r}, found {t.value!r}")
        return t

    def continues(self):
        """Whether the expression goes on after newlines (a leading ?, :, . ...)."""
        t = self.peek(skip_nl=True)
        return t.kind == "op" and (t.value in _CONTINUE_AFTER_NL or self.depth > 0)

    def op_ahead(self, ops):
        t = self.peek(skip_nl=self.depth > 0 or self.continues())
        if t.kind == "op" and t.value in ops:
            return t.value
        if t.kind == "id" and t.value in ops:  # `in`
            return t.value
        return None

    # statements
    def block(self, closing=None):
        stmts = []
        while True:
            while self.peek().kind == "nl" or self.at(";"):
                self.next()
            t = self.peek()
            if t.kind == "end" or (closing and t.kind == "op" and t.value == closing):
                return ("block", stmts)
            stmts.append(self.statement())
            t = self.peek()
            if not (t.kind in ("nl", "end") or (t.kind == "op" and t.value in (";", closing))):
                raise GroovyError(f"line {t.line}: unexpected {t.value!r} after a statement")

    def statement(self):
        t = self.peek()
        if t.kind == "id" and t.value == "def":
            self.next()
            name = self.next()
            if name.kind != "id":
                raise GroovyError(f"line {name.line}: def without a name")
            if self.at("="):
                self.next()
                self.skip_nl()
                return ("def", name.value, self.expr())
            return ("def", name.value, ("lit", None))
        if t.kind == "id" and t.value == "if":
            return self.if_statement()
        if t.kind == "id" and t.value in ("for", "while", "switch", "try", "return", "class", "import"):
            raise Unsupported(f"line {t.line}: '{t.value}'")
        # paren-less call: error "message"
        nxt = self.toks[self.i + 1]
        if t.kind == "id" and nxt.kind in ("str", "gstr"):
            self.next()
            return ("expr", ("call", t.value, [self.expr()], {}))
        target = self.expr()
        if self.at("="):
            self.next()
            self.skip_nl()
            if target[0] not in ("name", "index"):
                raise Unsupported(f"line {t.line}: assignment to {target[0]}")
            return ("assign", target, self.expr())
        return ("expr", target)

    def if_statement(self):
        self.expect("if")
        self.expect("(")
        self.depth += 1
        cond = self.expr()
        self.depth -= 1
        self.expect(")")
        then = self.braced()
        other = None
        if self.at("else", skip_nl=True):
            self.skip_nl()
            self.next()
            other = self.if_statement() if self.at("if") else self.braced()
        return ("if", cond, then, other)

    def braced(self):
        self.skip_nl()
        self.expect("{")
        saved, self.depth = self.depth, 0
        body = self.block("}")
        self.depth = saved
        self.expect("}")
        return body

    # expressions
    def expr(self):
        return self.ternary()

    def ternary(self):
        cond = self.binary(0)
        op = self.op_ahead({"?", "?:"})
        if op == "?:":
            self.skip_nl()
            self.next()
            self.skip_nl()
            return ("elvis", cond, self.ternary())
        if op == "?":
            self.skip_nl()
            self.next()
            self.skip_nl()
            a = self.ternary()
            self.skip_nl()
            self.expect(":")
            self.skip_nl()
            return ("cond", cond, a, self.ternary())
        return cond

    def binary(self, level):
        if level == len(_BINARY):
            return self.unary()
        left = self.binary(level + 1)
        while True:
            op = self.op_ahead(set(_BINARY[level]))
            if not op:
                return left
            self.skip_nl()
            self.next()
            self.skip_nl()
            left = ("bin", op, left, self.binary(level + 1))

    def unary(self):
        if self.at("!"):
            self.next()
            return ("not", self.unary())
        if self.at("-"):
            self.next()
            return ("neg", self.unary())
        return self.postfix(self.primary())

    def args(self, closing):
        """Arguments up to `closing`: (positional, named)."""
        pos, named = [], {}
        self.depth += 1
        self.skip_nl()
        while not self.at(closing):
            t, n = self.peek(), self.toks[self.i + 1]
            if t.kind in ("id", "str") and n.kind == "op" and n.value == ":":
                self.next()
                self.next()
                self.skip_nl()
                named[t.value] = self.expr()
            else:
                pos.append(self.expr())
            self.skip_nl()
            if not self.at(closing):
                self.expect(",")
                self.skip_nl()
        self.depth -= 1
        self.expect(closing)
        return pos, named

    def postfix(self, node):
        while True:
            op = self.op_ahead({".", "?.", "(", "["}) if self.peek().kind != "nl" or self.continues() else None
            if op in (".", "?."):
                self.skip_nl()
                self.next()
                name = self.next()
                if name.kind != "id":
                    raise GroovyError(f"line {name.line}: expected a name after '{op}'")
                if self.at("(") or self.at("{"):
                    pos, named = [], {}
                    if self.at("("):
                        self.next()
                        pos, named = self.args(")")
                    if self.at("{"):  # a closure after the call: m(x) { ... } or m { ... }
                        pos = pos + [self.primary()]
                    node = ("mcall", node, name.value, pos, named, op == "?.")
                else:
                    node = ("prop", node, name.value, op == "?.")
            elif op == "[" and self.peek().kind == "op":
                self.next()
                self.depth += 1
                index = self.expr()
                self.depth -= 1
                self.expect("]")
                node = ("index", node, index)
            elif op == "(" and self.peek().kind == "op" and node[0] == "name":
                self.next()
                pos, named = self.args(")")
                node = ("call", node[1], pos, named)
            else:
                return node

    def primary(self):
        t = self.next()
        if t.kind == "str":
            return ("lit", t.value)
        if t.kind == "num":
            return ("lit", t.value)
        if t.kind == "gstr":
            return ("gstr", [p if isinstance(p, str) else Parser(p[1]).whole() for p in t.value])
        if t.kind == "id":
            if t.value in ("true", "false", "null"):
                return ("lit", {"true": True, "false": False, "null": None}[t.value])
            if t.value in ("new", "this", "super"):
                raise Unsupported(f"line {t.line}: '{t.value}'")
            return ("name", t.value)
        if t.kind == "op" and t.value == "(":
            self.depth += 1
            self.skip_nl()
            e = self.expr()
            self.skip_nl()
            self.depth -= 1
            self.expect(")")
            return e
        if t.kind == "op" and t.value == "[":
            if self.at(":") and self.toks[self.i + 1].value == "]":
                self.next()
                self.next()
                return ("map", [])
            # a map if the first element is `key:`
            self.skip_nl()
            t0, t1 = self.peek(), self.toks[self.i + 1]
            if t0.kind in ("id", "str") and t1.kind == "op" and t1.value == ":":
                pos, named = self.args("]")
                if pos:
                    raise GroovyError(f"line {t.line}: map literal mixes keys and values")
                return ("map", list(named.items()))
            pos, named = self.args("]")
            if named:
                raise GroovyError(f"line {t.line}: list literal mixes values and keys")
            return ("list", pos)
        if t.kind == "op" and t.value == "{":
            saved, self.depth = self.depth, 0
            self.skip_nl()
            params = []
            arrow = next((k for k in range(self.i, min(self.i + 12, len(self.toks)))
                          if self.toks[k].kind == "op" and self.toks[k].value == "->"), None)
            if arrow is not None:
                names = self.toks[self.i:arrow]
                if not (names[0::2] and all(x.kind == "id" for x in names[0::2])
                        and all(x.kind == "op" and x.value == "," for x in names[1::2])):
                    raise Unsupported(f"line {t.line}: closure parameters other than plain names")
                params = [x.value for x in names[0::2]]
                self.i = arrow + 1
                self.skip_nl()
            body = self.expr()
            self.skip_nl()
            self.depth = saved
            self.expect("}")
            return ("closure", body, params)
        raise GroovyError(f"line {t.line}: unexpected {t.value!r}")

    def whole(self):
        """The source as one expression (for ${...} in strings)."""
        self.skip_nl()
        e = self.expr()
        self.skip_nl()
        if self.peek().kind != "end":
            raise GroovyError(f"unexpected {self.peek().value!r} after an expression")
        return e


# ---------------------------------------------------------------- evaluation

def _method(obj, name, args, named):
    if named:
        raise Unsupported(f"named arguments to .{name}()")
    if isinstance(obj, NfPath):
        getters = {"getName": "name", "getBaseName": "baseName", "getSimpleName": "simpleName",
                   "getExtension": "extension"}
        if name in getters and not args:
            return obj.prop(getters[name])
        if name == "toString" and not args:
            return obj.name
        raise Unsupported(f"file method .{name}()")
    if hasattr(obj, "method"):
        return obj.method(name, args)
    key = (type(obj).__name__, name)
    if key not in METHODS:
        raise Unsupported(f"method {type(obj).__name__}.{name}()")
    return METHODS[key](obj, *args)


def _java_split(s, rx):
    """Java's String.split: trailing empty strings are dropped (but "" gives [""])."""
    parts = re.split(rx, s)
    while len(parts) > 1 and parts[-1] == "":
        parts.pop()
    return parts


def _tokenize_method(s, sep=None):
    return [t for t in re.split("[" + re.escape(sep if sep is not None else " \t\n\r\f") + "]", s) if t]


METHODS = {
    ("str", "tokenize"): _tokenize_method,
    ("str", "trim"): lambda s: s.strip(),
    ("str", "toString"): lambda s: s,
    ("str", "contains"): lambda s, x: to_text(x) in s,
    ("str", "startsWith"): lambda s, x: s.startswith(x),
    ("str", "endsWith"): lambda s, x: s.endswith(x),
    ("str", "replace"): lambda s, a, b: s.replace(a, b),
    ("str", "size"): lambda s: len(s),
    ("str", "length"): lambda s: len(s),
    ("str", "isEmpty"): lambda s: not s,
    ("str", "toInteger"): lambda s: int(s),
    ("str", "toUpperCase"): lambda s: s.upper(),
    ("str", "toLowerCase"): lambda s: s.lower(),
    ("list", "size"): lambda v: len(v),
    ("list", "isEmpty"): lambda v: not v,
    ("list", "contains"): lambda v, x: x in v,
    ("list", "intersect"): lambda v, w: [x for x in v if x in w],
    ("list", "join"): lambda v, sep="": sep.join(to_text(x) for x in v),
    ("list", "first"): lambda v: v[0],
    ("list", "collect"): lambda v, c: [c.call(x) for x in v],
    ("list", "findAll"): lambda v, c: [x for x in v if truth(c.call(x))],
    ("list", "find"): lambda v, c: next((x for x in v if truth(c.call(x))), None),
    ("list", "every"): lambda v, c: all(truth(c.call(x)) for x in v),
    ("list", "any"): lambda v, c: any(truth(c.call(x)) for x in v),
    ("str", "split"): lambda s, rx: _java_split(s, rx),
    ("str", "matches"): lambda s, rx: re.fullmatch(rx, s) is not None,
    ("list", "last"): lambda v: v[-1],
    ("dict", "size"): lambda d: len(d),
    ("dict", "containsKey"): lambda d, k: k in d,
    ("dict", "get"): lambda d, k: d.get(k),
    ("int", "toString"): lambda n: str(n),
}


def _prop(obj, name, safe):
    if obj is None:
        if safe:
            return None
        raise GroovyError(f"property .{name} of null")
    if isinstance(obj, StrictMap) and name not in obj:
        raise Unsupported(f"{obj.label}.{name} (not given to this evaluator)")
    if hasattr(obj, "prop"):  # objects that answer their own properties (files an nf-test reads)
        return obj.prop(name)
    if isinstance(obj, dict):
        return obj.get(name)
    if isinstance(obj, NfPath):
        return obj.prop(name)
    if isinstance(obj, str) and name == "size":
        raise Unsupported("string property .size")
    raise Unsupported(f"property .{name} of a {type(obj).__name__}")


def _compare(op, a, b):
    if op == "==":
        return a == b
    if op == "!=":
        return a != b
    if op == "in":
        return a in b
    if op == "!in":
        return a not in b
    if a is None or b is None:
        raise Unsupported(f"comparison {op} with null")
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]


def _plus(a, b):
    if isinstance(a, str):
        return a + to_text(b)
    if isinstance(a, list):
        return a + (b if isinstance(b, list) else [b])
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a + b
    raise Unsupported(f"+ on {type(a).__name__} and {type(b).__name__}")


class Env:
    def __init__(self, names, functions):
        self.names, self.functions = names, functions

    def lookup(self, name):
        if name not in self.names:
            raise GroovyError(f"unknown name '{name}'")
        return self.names[name]


def evaluate_node(node, env):
    kind = node[0]
    if kind == "lit":
        return node[1]
    if kind == "gstr":
        return "".join(p if isinstance(p, str) else to_text(evaluate_node(p, env)) for p in node[1])
    if kind == "name":
        return env.lookup(node[1])
    if kind == "list":
        return [evaluate_node(x, env) for x in node[1]]
    if kind == "map":
        return {k: evaluate_node(v, env) for k, v in node[1]}
    if kind == "closure":
        return Closure(node[1], env, node[2])
    if kind == "prop":
        return _prop(evaluate_node(node[1], env), node[2], node[3])
    if kind == "index":
        obj, i = evaluate_node(node[1], env), evaluate_node(node[2], env)
        if obj is None:
            raise GroovyError("index of null")
        if isinstance(obj, dict):
            return obj.get(i)
        return obj[i] if -len(obj) <= i < len(obj) else None
    if kind == "mcall":
        obj = evaluate_node(node[1], env)
        if obj is None and node[5]:
            return None
        if obj is None:
            raise GroovyError(f"method .{node[2]}() of null")
        args = [evaluate_node(a, env) for a in node[3]]
        named = {k: evaluate_node(v, env) for k, v in node[4].items()}
        return _method(obj, node[2], args, named)
    if kind == "call":
        fn = env.functions.get(node[1])
        if fn is None and isinstance(env.names.get(node[1]), Closure):
            fn = env.names[node[1]].call
        if fn is None:
            raise Unsupported(f"function {node[1]}()")
        args = [evaluate_node(a, env) for a in node[2]]
        named = {k: evaluate_node(v, env) for k, v in node[3].items()}
        return fn(*args, **named)
    if kind == "not":
        return not truth(evaluate_node(node[1], env))
    if kind == "neg":
        return -evaluate_node(node[1], env)
    if kind == "elvis":
        v = evaluate_node(node[1], env)
        return v if truth(v) else evaluate_node(node[2], env)
    if kind == "cond":
        return evaluate_node(node[2] if truth(evaluate_node(node[1], env)) else node[3], env)
    if kind == "bin":
        op = node[1]
        if op == "&&":
            return truth(evaluate_node(node[2], env)) and truth(evaluate_node(node[3], env))
        if op == "||":
            return truth(evaluate_node(node[2], env)) or truth(evaluate_node(node[3], env))
        a, b = evaluate_node(node[2], env), evaluate_node(node[3], env)
        if op == "+":
            return _plus(a, b)
        if op == "-":
            return a - b
        if op == "*":
            return a * b
        if op in ("..", "..<"):
            if not (isinstance(a, int) and isinstance(b, int)):
                raise Unsupported(f"range {op} of {type(a).__name__} and {type(b).__name__}")
            return list(range(a, b + 1 if op == ".." else b))
        if op in ("/", "%"):
            raise Unsupported(f"operator {op}")
        return _compare(op, a, b)
    raise Unsupported(f"expression {kind}")


def _exec(block, env):
    value = None
    for st in block[1]:
        kind = st[0]
        if kind == "def":
            env.names[st[1]] = value = evaluate_node(st[2], env)
        elif kind == "assign":
            target, v = st[1], evaluate_node(st[2], env)
            if target[0] == "name":
                env.names[target[1]] = v
            else:
                obj, i = evaluate_node(target[1], env), evaluate_node(target[2], env)
                if isinstance(obj, list):
                    obj.extend([None] * (i + 1 - len(obj)))
                obj[i] = v
            value = v
        elif kind == "if":
            value = None
            if truth(evaluate_node(st[1], env)):
                value = _exec(st[2], env)
            elif st[3] is not None:
                value = _exec(st[3], env) if st[3][0] == "block" else _exec(("block", [st[3]]), env)
        else:
            value = evaluate_node(st[1], env)
    return value


def _error(msg=""):
    raise ProcessError(to_text(msg))


BASE_FUNCTIONS = {"error": _error}


def run_block(src, names, functions=None):
    """Runs statements; returns (value of the last one, the names afterwards)."""
    env = Env(dict(names), dict(BASE_FUNCTIONS, **(functions or {})))
    value = _exec(Parser(src).block(), env)
    return value, env.names


def evaluate(src, names, functions=None):
    """Evaluates one expression."""
    env = Env(dict(names), dict(BASE_FUNCTIONS, **(functions or {})))
    return evaluate_node(Parser(src).whole(), env)


# ---------------------------------------------------------------- self-check

# Expressions with the values Groovy gives them; module_scripts.py runs these
# before it trusts the evaluator with a module.
_KNOWN = [
    ('"a\\\\b \\$x ${1 + 2}"', {}, "a\\b $x 3"),
    ("x ?: 'd'", {"x": ""}, "d"),
    ("x ?: 'd'", {"x": "v"}, "v"),
    ("x ? 'y' : x2 ? 'z' : 'w'", {"x": None, "x2": []}, "w"),
    ('"${m.id}.${t.replace(\'/\', \'of\')}"', {"m": {"id": "r"}, "t": "2/3"}, "r.2of3"),
    ("p.tokenize(',').intersect(['conda', 'mamba']).size() >= 1", {"p": "test,conda"}, True),
    ("p.tokenize(',').intersect(['conda', 'mamba']).size() >= 1", {"p": "test,docker"}, False),
    ('"$f $fs"', {"f": NfPath("/d/a.fa.gz"), "fs": NfPathList([NfPath("/d/x.gz"), NfPath("/e/y.gz")])},
     "a.fa.gz x.gz y.gz"),
    ("f.simpleName + '|' + f.baseName", {"f": NfPath("/d/a.fa.gz")}, "a|a.fa"),
    ('"${[a: 1, b: [2, true]]} ${null}"', {}, "[a:1, b:[2, true]] null"),
    ("!x && y || z in ['q']", {"x": 0, "y": False, "z": "q"}, True),
    ('"""\n    a \\\\\n      b\\\n c\n"""', {}, "\n    a \\\n      b c\n"),
    ("'cuda:' + (0..<n).join(',')", {"n": 3}, "cuda:0,1,2"),
    ("(1..2) + (0..<0)", {}, [1, 2]),
    ("xs.collect { x -> x.k }.findAll { k -> k > 1 }.size()", {"xs": [{"k": 1}, {"k": 2}, {"k": 3}]}, 2),
    ("'a\tb\t\t'.split('\t').size() + ''.split(',').size()", {}, 3),
]


def self_check():
    for src, names, want in _KNOWN:
        got = evaluate(src, names)
        if got != want:
            raise AssertionError(f"groovy_subset: {src!r} gave {got!r}, Groovy gives {want!r}")
