"""Reads Nextflow processes (modules' main.nf, the examples' workflows) and
nf-test files well enough to run a process's script: or stub: block the way
Nextflow would, without Nextflow: tests/packaging/module_scripts.py uses it.

A process is cut into its directives and its input:, output:, when:,
script:, stub: sections on groovy_subset's tokens (so braces and colons in
strings do not count); the sections' Groovy is evaluated by groovy_subset.
What Nextflow does and this reproduces, for one task:
  - inputs: each path input is staged as a symbolic link named as the file,
    in a fresh work directory; val inputs are bound as they are;
  - the script (or stub) block is run as Groovy, and its last value, the
    command text, has its common indentation removed and is run by
    `bash -C -e -u -o pipefail` (nf-core's process.shell) in the work
    directory;
  - outputs: path patterns are globbed in the work directory as Nextflow
    globs them (* and ? stay inside a directory, ** crosses them, {a,b}
    alternatives; hidden files and the staged inputs are left out unless
    the output asks for them); eval outputs run their command there.
Not reproduced: containers, channels and operators, task retries, `env` and
`stdout` outputs' values, `each` inputs, stageAs patterns, `arity`.
"""
import os
import re
import subprocess
import textwrap
from pathlib import Path

from groovy_subset import (BASE_FUNCTIONS, Env, GroovyError, NfPath, NfPathList, Parser, Unsupported, evaluate,
                           evaluate_node, run_block, to_text, tokenize)

SECTIONS = ("input", "output", "when", "script", "shell", "exec", "stub")
DECL_KINDS = ("tuple", "path", "file", "val", "eval", "env", "stdout", "each")


class Process:
    def __init__(self, name, src, directives, sections, path):
        self.name, self.src, self.directives, self.sections, self.path = name, src, directives, sections, path

    def __repr__(self):
        return f"Process({self.name} in {self.path})"


def _matching(toks, i, open_, close):
    """Index of the token closing the bracket opened at toks[i]."""
    depth = 0
    for j in range(i, len(toks)):
        if toks[j].kind == "op" and toks[j].value == open_:
            depth += 1
        elif toks[j].kind == "op" and toks[j].value == close:
            depth -= 1
            if depth == 0:
                return j
    raise GroovyError(f"line {toks[i].line}: '{open_}' not closed")


def processes(path):
    """{name: Process} of a .nf file."""
    src = Path(path).read_text()
    toks = tokenize(src)
    found = {}
    i = 0
    while i < len(toks) - 2:
        t = toks[i]
        if (t.kind == "id" and t.value == "process" and toks[i + 1].kind == "id"
                and toks[i + 2].kind == "op" and toks[i + 2].value == "{"):
            close = _matching(toks, i + 2, "{", "}")
            body = toks[i + 3:close]
            starts = []
            depth = 0
            for k, b in enumerate(body):
                if b.kind == "op" and b.value in "{([":
                    depth += 1
                elif b.kind == "op" and b.value in "})]":
                    depth -= 1
                elif (depth == 0 and b.kind == "id" and b.value in SECTIONS and k + 1 < len(body)
                      and body[k + 1].kind == "op" and body[k + 1].value == ":"
                      and (k == 0 or body[k - 1].kind == "nl")):
                    starts.append((b.value, b.pos, body[k + 1].end))
            sections = {}
            for n, (sec, _, text_start) in enumerate(starts):
                end = starts[n + 1][1] if n + 1 < len(starts) else toks[close].pos
                sections[sec] = src[text_start:end]
            directives = src[toks[i + 2].end:starts[0][1] if starts else toks[close].pos]
            name = toks[i + 1].value
            found[name] = Process(name, src, directives, sections, Path(path))
            i = close
        i += 1
    return found


def declarations(section):
    """The declarations of an input: or output: section, as source texts."""
    toks = tokenize(section)
    decls, cur_start, depth, prev = [], None, 0, None
    for k, t in enumerate(toks):
        if t.kind == "end":
            break
        if t.kind == "op" and t.value in "([{":
            depth += 1
        elif t.kind == "op" and t.value in ")]}":
            depth -= 1
        if (depth == 0 and t.kind == "id" and t.value in DECL_KINDS and (k == 0 or toks[k - 1].kind == "nl")
                and not (prev is not None and prev.kind == "op" and prev.value == ",")):
            if cur_start is not None:
                decls.append(section[cur_start:t.pos].strip())
            cur_start = t.pos
        if t.kind != "nl":
            prev = t
    if cur_start is not None:
        decls.append(section[cur_start:].strip())
    return decls


class Decl:
    """One input or output declaration: elements [(kind, args, named)] and options."""

    def __init__(self, text):
        self.text = text
        p = Parser(text)
        p.depth = 1
        p.skip_nl()
        first = p.next()
        if first.kind != "id" or first.value not in DECL_KINDS:
            raise GroovyError(f"not a declaration: {text}")
        self.tuple = first.value == "tuple"
        if not self.tuple:
            p.i -= 1
        self.elements, self.options = [], {}
        while True:
            p.skip_nl()
            t0 = p.peek()
            if t0.kind == "end":
                break
            t1 = p.toks[p.i + 1]
            if t0.kind == "id" and t1.kind == "op" and t1.value == ":":
                p.next()
                p.next()
                p.skip_nl()
                self.options[t0.value] = p.expr()
            else:
                kind = p.next()
                if kind.kind != "id" or kind.value not in DECL_KINDS[1:]:
                    raise Unsupported(f"declaration element {kind.value!r} in: {text}")
                if kind.value == "stdout":
                    args, named = [], {}
                elif p.at("("):
                    p.next()
                    args, named = p.args(")")
                else:
                    args, named = [p.expr()], {}
                self.elements.append((kind.value, args, named))
            p.skip_nl()
            if p.peek().kind != "end":
                p.expect(",")

    def option(self, name, env):
        node = self.options.get(name)
        if node is None:
            return None
        if node[0] == "name":  # emit: tsv, topic: versions
            return node[1]
        return evaluate_node(node, env)

    def names(self):
        """Input declarations: the names the elements bind."""
        out = []
        for kind, args, named in self.elements:
            if kind in ("each",) or named:
                raise Unsupported(f"input {kind} with options: {self.text}")
            if len(args) != 1 or args[0][0] != "name":
                raise Unsupported(f"input {kind} not bound to a plain name: {self.text}")
            out.append((kind, args[0][1]))
        return out


# ---- globbing as Nextflow does -------------------------------------------------------

def _braces(pattern):
    m = re.search(r"\{([^{}]*)\}", pattern)
    if not m:
        return [pattern]
    return [x for alt in m.group(1).split(",") for x in _braces(pattern[:m.start()] + alt + pattern[m.end():])]


def _glob_regex(pattern):
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[":
            j = pattern.index("]", i)
            out.append(pattern[i:j + 1])
            i = j + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def glob_outputs(workdir, pattern, staged, include_inputs=False, hidden=False):
    """Relative paths in workdir that an output path pattern captures."""
    regexes = [_glob_regex(p) for p in _braces(pattern)]
    found = []
    for root, dirs, files in os.walk(workdir):
        for name in dirs + files:
            rel = os.path.relpath(os.path.join(root, name), workdir)
            if rel.startswith(".command"):
                continue
            if not hidden and any(part.startswith(".") for part in rel.split("/")) and not pattern.startswith("."):
                continue
            if not include_inputs and rel in staged:
                continue
            if any(r.match(rel) for r in regexes):
                found.append(rel)
    return sorted(found)


# ---- one task ------------------------------------------------------------------------

class TaskResult:
    """outputs: {emit: (Decl, [(kind, pattern or command or value, matches or run, options)])};
    channels: {emit: the value the task puts on that channel}."""

    def __init__(self, workdir, command, outputs):
        self.workdir, self.command, self.outputs = workdir, command, outputs
        self.channels = {}
        for emit, (decl, got) in outputs.items():
            vals = []
            for kind, value, detail, _ in got:
                if kind == "path":
                    files = [NfPath(workdir / rel) for rel in detail]
                    vals.append(files[0] if len(files) == 1 else NfPathList(files))
                elif kind == "eval":
                    vals.append(detail.stdout.strip())
                else:
                    vals.append(value)
            self.channels[emit] = vals if decl.tuple else vals[0]


def render(proc, block, names):
    """(command text, names after the block) of a script: or stub: block."""
    if block not in proc.sections:
        raise GroovyError(f"{proc.name}: no {block}: block")
    value, after = run_block(proc.sections[block], names)
    if not isinstance(value, str):
        raise GroovyError(f"{proc.name}: the {block}: block does not end with the command string")
    return textwrap.dedent(value).strip("\n") + "\n", after


def bind_inputs(proc, values):
    """Names for the task from one value per input declaration; (names, files to stage)."""
    decls = [Decl(d) for d in declarations(proc.sections.get("input", ""))]
    if len(decls) != len(values):
        raise GroovyError(f"{proc.name}: {len(decls)} inputs declared, {len(values)} given")
    names, stage = {}, {}
    for decl, value in zip(decls, values):
        elems = decl.names()
        vals = value if decl.tuple else [value]
        if len(vals) != len(elems):
            raise GroovyError(f"{proc.name}: input '{decl.text}' given {len(vals)} values")
        for (kind, name), v in zip(elems, vals):
            if kind in ("path", "file"):
                files = v if isinstance(v, list) else [v]
                if isinstance(v, list):
                    v = NfPathList(v)
                for f in files:
                    if not isinstance(f, NfPath):
                        raise GroovyError(f"{proc.name}: input {name} is not a file: {to_text(f)}")
                    if f.name in stage and stage[f.name] != f.path:
                        raise GroovyError(f"{proc.name}: two inputs staged as {f.name}")
                    stage[f.name] = f.path
            names[name] = v
    return names, stage


def run_task(proc, block, values, task, workflow, workdir, path_env, extra_names=None, timeout=600):
    """Runs one task of `proc` (block "script" or "stub") in a new `workdir`.
    Returns TaskResult with outputs {emit: [(kind, value-or-matches, element)]}."""
    names, stage = bind_inputs(proc, values)
    names.update(extra_names or {})
    base = dict(names, task=task, workflow=workflow)
    command, _ = render(proc, block, base)
    workdir = Path(workdir)
    workdir.mkdir(parents=True)
    for name, target in stage.items():
        os.symlink(target, workdir / name)
    (workdir / ".command.sh").write_text(command)
    env = dict(os.environ, PATH=path_env)
    with open(workdir / ".command.out", "w") as out, open(workdir / ".command.err", "w") as err:
        rc = subprocess.run(["bash", "-C", "-e", "-u", "-o", "pipefail", ".command.sh"], cwd=workdir,
                            env=env, stdout=out, stderr=err, timeout=timeout).returncode
    if rc != 0:
        tail = (workdir / ".command.err").read_text()[-2000:]
        raise GroovyError(f"{proc.name} {block}: exit {rc}\n--- command:\n{command}--- stderr:\n{tail}")
    # Outputs see the inputs and the task, not the script's local (def) names.
    out_env = Env(dict(base), dict(BASE_FUNCTIONS))
    outputs = {}
    for n, text in enumerate(declarations(proc.sections.get("output", ""))):
        decl = Decl(text)
        emit = decl.option("emit", out_env) or f"out{n}"
        got = []
        for kind, args, named in decl.elements:
            nvals = {k: evaluate_node(v, out_env) for k, v in named.items()}
            if kind in ("path", "file"):
                pattern = to_text(evaluate_node(args[0], out_env))
                matches = glob_outputs(workdir, pattern, stage, nvals.get("includeInputs", False),
                                       nvals.get("hidden", False))
                got.append(("path", pattern, matches, nvals))
            elif kind == "eval":
                cmd = to_text(evaluate_node(args[0], out_env))
                r = subprocess.run(["bash", "-c", cmd], cwd=workdir, env=env, capture_output=True, text=True,
                                   timeout=60)
                got.append(("eval", cmd, r, nvals))
            elif kind == "val":
                got.append(("val", evaluate_node(args[0], out_env), None, nvals))
            else:
                got.append((kind, None, None, nvals))
        outputs[emit] = (decl, got)
    return TaskResult(workdir, command, outputs)


# ---- nf-test files ----------------------------------------------------------------

class NfTest:
    """setups: [(process name, its script's path relative to the test file, input code)];
    then_src: the source of its then { } block (see assertions())."""

    def __init__(self, name, stub, input_code, params, setups, then_src=""):
        self.name, self.stub, self.input_code, self.params, self.setups = name, stub, input_code, params, setups
        self.then_src = then_src


def _literal(tok):
    """The text of a string token without interpolation, or None."""
    if tok.kind == "str":
        return tok.value
    if tok.kind == "gstr" and all(isinstance(p, str) for p in tok.value):
        return "".join(tok.value)
    return None


def _input_code(toks, k, names):
    """The code of `process { \"\"\"...\"\"\" }` whose `process` is toks[k], nf-test's
    ${...} filled in."""
    j = k + 2
    while toks[j].kind == "nl":
        j += 1
    if toks[j].kind == "gstr":
        return evaluate_node(("gstr", [p if isinstance(p, str) else Parser(p[1]).whole() for p in toks[j].value]),
                             Env(dict(names), {}))
    if toks[j].kind == "str":
        return toks[j].value
    raise GroovyError(f"line {toks[k].line}: process {{ }} without the input code string")


def nf_tests(path, names):
    """The test() cases of a main.nf.test: the input code of each `when { process
    { ... } }` with nf-test's own ${...} already filled in from `names`, and
    its `params { }` assignments."""
    src = Path(path).read_text()
    toks = tokenize(src)
    tests, config = [], None
    for i, t in enumerate(toks):
        if t.kind == "id" and t.value == "config" and toks[i + 1].kind in ("str", "gstr"):
            config = toks[i + 1].value if toks[i + 1].kind == "str" else None
        if not (t.kind == "id" and t.value == "test" and toks[i + 1].value == "("
                and toks[i + 2].kind in ("str", "gstr") and toks[i + 3].value == ")" and toks[i + 4].value == "{"):
            continue
        name = toks[i + 2].value if toks[i + 2].kind == "str" else "".join(
            p for p in toks[i + 2].value if isinstance(p, str))
        close = _matching(toks, i + 4, "{", "}")
        body = toks[i + 5:close]
        stub = any(b.kind == "id" and b.value == "options" and "-stub" in (_literal(body[k + 1]) or "")
                   for k, b in enumerate(body[:-1]))
        code, params, setups, then_src = None, {}, [], ""
        setup_end = -1
        for k, b in enumerate(body[:-3]):
            if b.kind == "id" and b.value == "setup" and body[k + 1].value == "{":
                setup_end = _matching(body, k + 1, "{", "}")
            if (b.kind == "id" and b.value == "run" and k < setup_end and body[k + 1].value == "("
                    and _literal(body[k + 2]) and body[k + 3].value == ")" and body[k + 4].value == "{"):
                run_end = _matching(body, k + 4, "{", "}")
                script = next((_literal(body[x + 1]) for x in range(k + 5, run_end)
                               if body[x].kind == "id" and body[x].value == "script"), None)
                pk = next((x for x in range(k + 5, run_end) if body[x].kind == "id" and body[x].value == "process"
                           and body[x + 1].value == "{"), None)
                if script is None or pk is None:
                    raise GroovyError(f"{path}: test '{name}': run(\"{_literal(body[k + 2])}\") without script or process")
                setups.append((_literal(body[k + 2]), script, _input_code(body, pk, names)))
            if (k > setup_end and b.kind == "id" and b.value == "process" and body[k + 1].kind == "op"
                    and body[k + 1].value == "{"):
                code = _input_code(body, k, names)
            if (b.kind == "id" and b.value == "then" and body[k + 1].kind == "op" and body[k + 1].value == "{"
                    and (k == 0 or body[k - 1].kind == "nl")):
                then_src = src[body[k + 1].end:body[_matching(body, k + 1, "{", "}")].pos]
            if b.kind == "id" and b.value == "params" and body[k + 1].value == "{":
                pclose = _matching(body, k + 1, "{", "}")
                _, after = run_block(src[body[k + 1].end:body[pclose].pos], {})
                params.update(after)
        if code is None:
            raise GroovyError(f"{path}: test '{name}' has no process {{ \"\"\" input[...] \"\"\" }} block")
        tests.append(NfTest(name, stub, code, params, setups, then_src))
    return tests, config


def file_tags(path):
    """The tags of an nf-test file's nextflow_process { } (tag "..." lines outside test())."""
    src = Path(path).read_text()
    toks = tokenize(src)
    tags, depth = [], 0
    for i, t in enumerate(toks):
        if t.kind == "op" and t.value in "{(":
            depth += 1
        elif t.kind == "op" and t.value in "})":
            depth -= 1
        elif depth == 1 and t.kind == "id" and t.value == "tag" and toks[i + 1].kind in ("str", "gstr"):
            tags.append(_literal(toks[i + 1]))
    return tags


def assertions(then_src):
    """(definitions, [assertion expression sources]) of a then { } block written
    as nf-core writes them: statements (def name = { ... }) and then one
    assertAll( { assert EXPR }, ... ). Anything else is refused."""
    toks = tokenize(then_src)
    k = next((i for i, t in enumerate(toks) if t.kind == "id" and t.value == "assertAll"), None)
    if k is None or toks[k + 1].value != "(":
        raise Unsupported("a then { } block without assertAll( ... )")
    close = _matching(toks, k + 1, "(", ")")
    if any(t.kind not in ("nl", "end") for t in toks[close + 1:]):
        raise Unsupported("statements after assertAll( ... ) in a then { } block")
    exprs, i = [], k + 2
    while i < close:
        t = toks[i]
        if t.kind == "nl" or (t.kind == "op" and t.value == ","):
            i += 1
            continue
        if not (t.kind == "op" and t.value == "{"):
            raise Unsupported(f"line {t.line}: an assertAll argument that is not {{ assert ... }}")
        end = _matching(toks, i, "{", "}")
        j = i + 1
        while toks[j].kind == "nl":
            j += 1
        if not (toks[j].kind == "id" and toks[j].value == "assert"):
            raise Unsupported(f"line {t.line}: a closure in assertAll that does not start with assert")
        exprs.append(then_src[toks[j].end:toks[end].pos].strip())
        i = end + 1
    return then_src[:toks[k].pos], exprs


def test_inputs(code, names, functions):
    """The values a test's input code gives the process: input[0], input[1], ..."""
    _, after = run_block(code, dict(names, input=[]), functions)
    return after["input"]


def _code(line):
    """A config line without its // comment (one inside quotes stays)."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            if c == "\\":
                continue
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif line.startswith("//", i):
            return line[:i]
    return line


def _balance(text):
    depth, quote, prev = 0, None, ""
    for c in text:
        if quote:
            if c == quote and prev != "\\":
                quote = None
        elif c in "'\"":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        prev = c
    return depth


class NfConfig:
    """The assignments of a Nextflow config file, each with the scopes it is in:
    `name {` blocks, `withName: 'pattern' {` and `withLabel: 'pattern' {`
    selectors, one-line `name { a = b }` blocks, and `key = value`
    assignments (a value may go on over lines while brackets are open).
    Values are kept as source and evaluated only when asked for; any other
    kind of line (includeConfig, if ...) is refused."""

    def __init__(self, path):
        self.path, self.entries = Path(path), []
        stack, pending = [], None
        for n, raw in enumerate(self.path.read_text().splitlines(), 1):
            line = _code(raw).strip()
            if pending is not None:
                pending = (pending[0], pending[1] + "\n" + line)
                if _balance(pending[1]) <= 0:
                    self.entries.append((tuple(stack), pending[0], pending[1]))
                    pending = None
                continue
            if not line:
                continue
            m = re.fullmatch(r"(withName|withLabel)\s*:\s*(['\"])(.+?)\2\s*\{", line)
            if m:
                stack.append((m.group(1), m.group(3)))
                continue
            m = re.fullmatch(r"([A-Za-z_][\w.]*)\s*\{", line)
            if m:
                stack.append(m.group(1))
                continue
            if line == "}":
                if not stack:
                    raise GroovyError(f"{path}:{n}: '}}' closes nothing")
                stack.pop()
                continue
            m = re.fullmatch(r"([A-Za-z_][\w]*)\s*\{\s*([A-Za-z_][\w.]*)\s*=\s*(.+?)\s*\}", line)
            if m:
                self.entries.append((tuple(stack) + (m.group(1),), m.group(2), m.group(3)))
                continue
            m = re.fullmatch(r"([A-Za-z_][\w.]*)\s*=\s*(.+)", line)
            if m:
                if _balance(m.group(2)) > 0:
                    pending = (m.group(1), m.group(2))
                else:
                    self.entries.append((tuple(stack), m.group(1), m.group(2)))
                continue
            raise GroovyError(f"{path}:{n}: a config line this reader does not know: {line}")
        if stack or pending:
            raise GroovyError(f"{path}: a block is not closed")

    @staticmethod
    def _split(scopes, key, profiles):
        """(scopes and key outside the profile, or None when in an inactive profile)."""
        if scopes and scopes[0] == "profiles":
            if len(scopes) < 2 or scopes[1] not in profiles:
                return None
            scopes = scopes[2:]
        parts = key.split(".")
        return tuple(scopes) + tuple(parts[:-1]), parts[-1]

    def params(self, profiles, names):
        out = {}
        for scopes, key, src in self.entries:
            split = self._split(scopes, key, profiles)
            if split and split[0] == ("params",):
                out[split[1]] = evaluate(src, dict(names, params=out))
        return out

    def process(self, name, labels, profiles, names):
        """{setting: value} for a process: ext.* keys as "ext.args"; withName
        settings win over withLabel ones, which win over plain ones."""
        ranked = []
        for order, (scopes, key, src) in enumerate(self.entries):
            split = self._split(scopes, key, profiles)
            if not split or not split[0] or split[0][0] != "process":
                continue
            sel, rest = [], []
            for s in split[0][1:]:
                (sel if isinstance(s, tuple) else rest).append(s)
            ok = all(re.fullmatch(p, name) if kind == "withName" else any(re.fullmatch(p, lab) for lab in labels)
                     for kind, p in sel)
            if ok:
                rank = 2 if any(k == "withName" for k, _ in sel) else 1 if sel else 0
                ranked.append((rank, order, ".".join(rest + [split[1]]), src))
        out = {}
        for _, _, key, src in sorted(ranked):
            out[key] = src
        return out

    def ext(self, name, labels, profiles, names):
        """task.ext for a process: closures are called (with `names`)."""
        ext = {}
        for key, src in self.process(name, labels, profiles, names).items():
            if key.startswith("ext."):
                value = evaluate(src, names)
                ext[key[4:]] = value.call() if hasattr(value, "call") else value
        return ext


def labels_of(proc):
    return re.findall(r"^\s*label\s+['\"]([\w-]+)['\"]", proc.directives, re.MULTILINE)


def config_accelerator(path, params, process_name, labels=()):
    """task.accelerator of a test config for one process: None, or {"request": N, ...}."""
    if path is None or not Path(path).is_file():
        return None
    src = NfConfig(path).process(process_name, labels, (), {"params": params}).get("accelerator")
    if src is None:
        return None
    value = evaluate(src, {"params": params})
    value = value.call() if hasattr(value, "call") else value
    if isinstance(value, int):
        return {"request": value}
    if isinstance(value, dict):
        return dict(value)
    raise GroovyError(f"{path}: accelerator = {src}: neither a number nor a map")


def config_ext(path, params, process_name, labels=()):
    """task.ext of a module's test config (tests/nextflow.config) for one process."""
    if path is None or not Path(path).is_file():
        return {}
    return NfConfig(path).ext(process_name, labels, (), {"params": params})
