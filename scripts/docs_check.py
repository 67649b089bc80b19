#!/usr/bin/python3
"""Run the commands the README and docs show, and check what they say those commands print.

    /usr/bin/python3 scripts/docs_check.py --check  --tessel build/apps/tessel/tessel [FILE.md ...]
    /usr/bin/python3 scripts/docs_check.py --update --tessel build/apps/tessel/tessel [FILE.md ...]

Markup (an HTML comment on the line just before a fence, invisible on GitHub):

  <!-- run -->              the block's commands are executed (the default for ```sh blocks; an
                            untagged block whose first line is `tessel ...` or `$ tessel ...` must
                            be marked run or skip). `\\` continues a line, `&&` chains, `# text`
                            is a comment, `# exit N` after a command expects exit code N (else 0).
                            `make demo` runs the tessel command of the Makefile's demo target.
  <!-- run; # lines are output -->  `# ` lines after a command are what it prints.
  <!-- run slow -->         the same, but run only with --slow=only|all (ctest label docs_slow).
  A ```python block marked run is one program, run by /usr/bin/python3 with PYTHONPATH set to
  the module beside the tessel binary (BUILD/python); it must exit 0 (its asserts are the check).
  <!-- skip: REASON -->     not run; the reason is required (a sh block without a marker that
                            cannot run -- a placeholder, mpirun -- fails the check).
  <!-- output -->           the block is what the previous run block's last command prints.
  <!-- output: tessel ... --> the block is what that command prints (for output quoted after prose).
  A transcript block (lines starting with `$ `) is marked run: each `$ command` is followed by
  what it prints; `$ cat FILE` followed by lines *writes* FILE in the sandbox (a doc's example
  file). In expected output a line `...` stands for any number of printed lines.

  <!-- fig RECIPE -->TEXT<!-- /fig -->   inline, on one line: TEXT is what the recipe (in
                            scripts/docs_recipes.py: a command line and what to extract from
                            its output) prints. RECIPE may be NAME:ARG.

Execution: every distinct command sequence runs once (a block's commands in order, each recipe's
command alone; a sequence that is a prefix of another is taken from the longer one), --jobs at a
time, each in a fresh sandbox: a temporary directory of symlinks to the repository's top-level
entries (minus build/ and out/, plus an empty out/), so relative outputs (`--json out/x.json`,
`-o dir`) land in the sandbox and the source tree is never written. Absolute `/tmp/...` arguments
are moved into the sandbox too. The command's stdout and stderr are compared together.

Normalisations before comparing (and nothing else): the sandbox path is removed from output;
trailing whitespace is dropped; the version after `tessel ` in a header line (`tessel 0.1.0 |`)
is not compared; wall-clock times tessel prints about itself (`in 3.2 s`, `took 0.5 s`,
`elapsed 1.2 s`) are not compared.

--update rewrites figures and output blocks in place (a temporary file beside the doc, then a
rename); an output block with `...` keeps its elisions, each shown stretch replaced by the
printed lines it lines up with. A command's `# ` output lines in a `# lines are output` block are
rewritten the same way when they stand together under it.
"""

import argparse
import concurrent.futures
import difflib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import docs_recipes
from docs_blocks import NORMALISE, matches, normalise, refit  # noqa: F401 (tests use them from here)  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
MARKER = re.compile(r'^<!--\s*(run|skip|output)\b\s*(:?)\s*(.*?)\s*-->\s*$')
FENCE = re.compile(r'^```(\w*)\s*$')
FIG = re.compile(r'<!--\s*fig\s+([\w.:@/+-]+)\s*-->(.*?)<!--\s*/fig\s*-->')
PYTHON = 'python3'  # a Cmd whose argv is [PYTHON, code]: a ```python block, run with the
# module next to the tessel binary (BUILD/python, as `PYTHONPATH=build/python` in docs/python.md)
EXIT = re.compile(r'#\s*exit\s+(\d+)\b')
class DocError(Exception):
    pass


@dataclass
class Cmd:
    argv: list           # with `tessel` as argv[0]; the binary is substituted when run
    exit: int = 0
    expect: list = None  # transcript/comment lines expected from it, or None
    line: int = 0
    expect_span: tuple = None  # 0-based [first, last + 1) doc lines of `# ` output lines

    @property
    def key(self):
        return shlex.join(self.argv)


@dataclass
class Block:
    path: Path
    line: int            # 1-based line of the opening fence
    end: int             # 0-based index of the closing fence
    lang: str
    body: list
    marker: tuple = None  # (kind, arg) or None
    cmds: list = field(default_factory=list)
    files: dict = field(default_factory=dict)  # transcript `cat` files, by name


@dataclass
class Fig:
    path: Path
    line: int
    recipe: str
    text: str


def parse_doc(path):
    lines = path.read_text().split('\n')
    blocks, figs, i = [], [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            for f in FIG.finditer(lines[i]):
                figs.append(Fig(path, i + 1, f.group(1), f.group(2)))
            if '<!-- fig' in lines[i] and not FIG.search(lines[i]):
                raise DocError(f'{path}:{i + 1}: a fig span must open and close on one line')
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not lines[j].startswith('```'):
            j += 1
        if j == len(lines):
            raise DocError(f'{path}:{i + 1}: unclosed fence')
        mk = MARKER.match(lines[i - 1]) if i else None
        blocks.append(Block(path, i + 1, j, m.group(1), lines[i + 1:j],
                            (mk.group(1), mk.group(3)) if mk else None))
        i = j + 1
    return lines, blocks, figs


def is_command_block(b):
    first = next((l for l in b.body if l.strip()), '')
    return b.lang == 'sh' or (b.lang == '' and re.match(r'^(\$ )?(tessel|make) [a-z](?!.* \| )', first))


def parse_commands(b, comments_are_output):
    """Fill b.cmds (and b.files for a transcript); raise DocError when not runnable."""
    where = f'{b.path}:{b.line}'
    if b.lang == 'python':  # the whole block is one program, run by Debian's python3
        b.cmds.append(Cmd([PYTHON, '\n'.join(b.body)], 0, None, b.line))
        return
    if any(l.startswith('$ ') for l in b.body):
        return parse_transcript(b)
    for n, line in logical_lines(b.body):
        if line.startswith('#') and comments_are_output and b.cmds:
            c = b.cmds[-1]
            c.expect = (c.expect or []) + [re.sub(r'^# ?', '', line)]
            first = c.expect_span[0] if c.expect_span else b.line + n
            c.expect_span = (first, b.line + n + 1)
        if not line or line.startswith('#'):
            continue
        exit_code = int(EXIT.search(line).group(1)) if EXIT.search(line) else 0
        try:
            words = shlex.split(line, comments=True)
        except ValueError as e:
            raise DocError(f'{where}: cannot parse `{line}`: {e}')
        for part in split_and(words):
            b.cmds.append(Cmd(to_argv(part, where), exit_code, None, b.line + n))


def logical_lines(body):
    """(index of its first body line, stripped text) of each line, `\\` continuations joined."""
    out, start, parts = [], None, []
    for n, raw in enumerate(body):
        start = n if start is None else start
        if raw.endswith('\\'):
            parts.append(raw[:-1])
            continue
        out.append((start, ' '.join(parts + [raw]).strip()))
        start, parts = None, []
    if parts:
        out.append((start, ' '.join(parts).strip()))
    return out


def parse_transcript(b):
    cmd = None
    lines = list(b.body)
    k = 0
    while k < len(lines):
        l = lines[k]
        if l.startswith('$ '):
            text = l[2:]
            while text.endswith('\\') and k + 1 < len(lines):
                k += 1
                text = text[:-1] + ' ' + lines[k].strip()
            words = shlex.split(text, comments=True)
            if words[:1] == ['cat'] and len(words) == 2:
                cmd = ('cat', words[1])
                b.files[words[1]] = []
            else:
                code = int(EXIT.search(text).group(1)) if EXIT.search(text) else 0
                cmd = Cmd(to_argv(words, f'{b.path}:{b.line}'), code, [], b.line + k + 1)
                b.cmds.append(cmd)
        elif isinstance(cmd, tuple):
            b.files[cmd[1]].append(l)
        elif cmd is not None:
            cmd.expect.append(l)
        k += 1


def split_and(words):
    part = []
    for w in words:
        if w == '&&':
            yield part
            part = []
        else:
            part.append(w)
    yield part


def to_argv(words, where):
    if words == ['make', 'demo']:
        return demo_command()
    if not words or words[0] != 'tessel':
        raise DocError(f'{where}: `{shlex.join(words)}` is not a tessel command: '
                       'mark the block <!-- skip: REASON -->')
    bad = [w for w in words if re.fullmatch(r'[A-Z][A-Z_]*(\.\w+)?|\.\.\.|\[.*', w)]
    if bad:
        raise DocError(f'{where}: placeholder {bad[0]!r} in `{shlex.join(words)}`: '
                       'mark the block <!-- skip: REASON -->')
    return list(words)


def demo_command():
    text = (ROOT / 'Makefile').read_text().replace('\\\n', ' ')
    m = re.search(r'^demo:.*?\n((?:\t.*\n)+)', text, re.M)
    for line in m.group(1).split('\n'):
        if '/tessel ' in line:
            return ['tessel'] + shlex.split(line.split('/tessel ', 1)[1])
    raise DocError('Makefile: no tessel command in the demo target')


# ---------------------------------------------------------------- running

class Runner:
    def __init__(self, tessel, jobs):
        self.tessel, self.jobs = str(Path(tessel).resolve()), jobs
        self.results = {}  # tuple of command keys -> (exit, output, cpu seconds)

    def run_all(self, sequences):
        """sequences: {tuple(keys): (list of Cmd, files)}; runs each distinct one once."""
        todo = {k: v for k, v in sequences.items() if k not in self.results and not any(
            o != k and o[:len(k)] == k and not sequences[o][1] for o in sequences)}
        with concurrent.futures.ThreadPoolExecutor(self.jobs) as pool:
            futs = {pool.submit(self.run_sequence, *v): k for k, v in todo.items()}
            for f in concurrent.futures.as_completed(futs):
                for n, res in enumerate(f.result()):
                    self.results[futs[f][:n + 1]] = res
        for k in sequences:
            if k not in self.results:
                raise DocError(f'internal: {k} not run')

    def run_sequence(self, cmds, files):
        out = []
        with tempfile.TemporaryDirectory(prefix='tessel-docs-') as tmp:
            sb = Path(tmp)
            for entry in ROOT.iterdir():
                if entry.name not in ('build', 'out', '.git'):
                    (sb / entry.name).symlink_to(entry)
            (sb / 'out').mkdir()
            (sb / 'tmp').mkdir()
            for name, body in files.items():
                if (sb / name).is_symlink() or '/' in name:
                    raise DocError(f'transcript file {name} would shadow the repository')
                (sb / name).write_text('\n'.join(body) + '\n')
            for c in cmds:
                if c.argv[0] == PYTHON:
                    out.append(self.run_one(['/usr/bin/python3', '-c', c.argv[1]], sb,
                                            self.python_path))
                    continue
                argv = [self.tessel] + [sb.as_posix() + a if a.startswith('/tmp/') else a
                                        for a in c.argv[1:]]
                out.append(self.run_one(argv, sb))
        return out

    @property
    def python_path(self):
        return str(Path(self.tessel).parents[2] / 'python')  # BUILD/apps/tessel/tessel

    @staticmethod
    def run_one(argv, sb, python_path=None):
        env = dict(os.environ, LC_ALL='C', TZ='UTC', COLUMNS='200', MPLBACKEND='Agg')
        if python_path:
            env['PYTHONPATH'] = python_path
        p = subprocess.Popen(argv, cwd=sb, env=env, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        text = p.stdout.read().decode(errors='replace')
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        p.stdout.close()
        text = text.replace(sb.as_posix() + '/tmp/', '/tmp/').replace(sb.as_posix() + '/', '')
        return p.returncode, text, usage.ru_utime + usage.ru_stime


# ---------------------------------------------------------------- checking

@dataclass
class Problem:
    where: str
    what: str
    doc: list = None
    printed: list = None

    def show(self):
        text = f'{self.where}: {self.what}'
        if self.doc is not None:
            diff = difflib.unified_diff(self.doc, self.printed, 'in the doc', 'printed',
                                        lineterm='', n=1)
            text += '\n' + '\n'.join('    ' + l for l in diff)
        return text


def gather(files, slow):
    """Parse the docs; returns (docs, sequences, problems)."""
    docs, seqs, problems = [], {}, []
    for path in files:
        lines, blocks, figs = parse_doc(path)
        prev, work = None, []
        for b in blocks:
            where = f'{path.relative_to(ROOT)}:{b.line}'
            kind, arg = b.marker or (None, '')
            if kind == 'skip':
                if not arg:
                    problems.append(Problem(where, 'skip marker without a reason'))
                prev = None
                continue
            if kind == 'output':
                target = prev
                if arg:
                    c = Cmd(to_argv(shlex.split(arg), where))
                    target = ((c,), {}, 'slow' in arg)
                if target is None:
                    problems.append(Problem(where, 'output block with no command before it'))
                elif slow_ok(target[2], slow):
                    work.append(('output', b, target))
                continue
            if kind == 'run' or (kind is None and is_command_block(b)):
                try:
                    parse_commands(b, '# lines are output' in arg)
                except DocError as e:
                    problems.append(Problem(where, str(e).split(': ', 1)[1]))
                    prev = None
                    continue
                is_slow = 'slow' in arg.split()
                prev = (tuple(b.cmds), b.files, is_slow)
                if slow_ok(is_slow, slow):
                    work.append(('run', b, prev))
            elif kind is not None:
                problems.append(Problem(where, f'unknown marker {kind}'))
            elif b.lang == 'python':
                problems.append(Problem(where, 'a python block must be marked run or skip'))
        for f in figs:
            r = docs_recipes.lookup(f.recipe)
            if r is None:
                problems.append(Problem(f'{path.relative_to(ROOT)}:{f.line}',
                                        f'unknown recipe {f.recipe}'))
                continue
            cmds = tuple(Cmd(['tessel'] + shlex.split(part)) for part in r.command.split(' && '))
            if slow_ok(r.slow, slow):
                work.append(('fig', f, (cmds, {}, r.slow)))
        for _, _, (cmds, files, _) in work:
            for n in range(len(cmds)):
                key = tuple(c.key for c in cmds[:n + 1])
                seqs.setdefault(key, (list(cmds[:n + 1]), files))
        docs.append((path, lines, work))
    return docs, seqs, problems


def slow_ok(is_slow, mode):
    return mode == 'all' or (mode == 'only') == bool(is_slow)


def check_doc(path, lines, work, runner, update):
    problems, edits = [], {}
    rel = path.relative_to(ROOT)
    for kind, item, (cmds, files, _) in work:
        keys = tuple(c.key for c in cmds)
        if kind == 'run':
            for n, c in enumerate(cmds):
                code, text, _ = runner.results[keys[:n + 1]]
                where = f'{rel}:{c.line}'
                if code != c.exit:
                    problems.append(Problem(where, f'`{c.key}` exited {code}, expected {c.exit}'
                                            f' (mark `# exit {code}` if intended)\n    '
                                            + '\n    '.join(text.strip().split('\n')[-5:])))
                elif c.expect is not None and not matches(c.expect, text.split('\n')):
                    new = refit(c.expect, normalise(text))
                    contiguous = c.expect_span and c.expect_span[1] - c.expect_span[0] == len(c.expect)
                    if update and contiguous and matches(new, text.split('\n')):
                        edits[c.expect_span] = [('# ' + l).rstrip() for l in new]
                    else:
                        problems.append(Problem(where, f'`{c.key}` prints something else',
                                                normalise('\n'.join(c.expect)), normalise(text)))
        elif kind == 'output':
            code, text, _ = runner.results[keys]
            printed = normalise(text)
            where = f'{rel}:{item.line}'
            if not matches(item.body, printed):
                new = refit(item.body, printed)
                if update:
                    edits[(item.line, item.end)] = new
                    if not matches(new, printed):
                        problems.append(Problem(where, 'could not regenerate this block '
                                                'keeping its `...`: edit it by hand',
                                                item.body, printed))
                else:
                    problems.append(Problem(where, f'output of `{cmds[-1].key}` differs '
                                            '(--update rewrites it)', normalise('\n'.join(item.body)),
                                            normalise('\n'.join(new))))
        else:
            code, text, _ = runner.results[keys]
            r = docs_recipes.lookup(item.recipe)
            where = f'{rel}:{item.line}'
            try:
                value = r.extract(text) if code == r.exit else None
            except Exception as e:  # noqa: BLE001 -- any extractor failure is a doc problem
                value, text = None, f'{type(e).__name__}: {e}\n{text}'
            if value is None:
                problems.append(Problem(where, f'recipe {item.recipe}: `tessel {r.command}` '
                                        f'exited {code} or printed no figure:\n    '
                                        + '\n    '.join(text.strip().split('\n')[-5:])))
            elif value != item.text:
                if update:
                    edits.setdefault(('fig', item.line), []).append((item, value))
                else:
                    problems.append(Problem(where, f'fig {item.recipe} (`tessel {r.command}`):'
                                            f' the doc says {item.text!r}, it prints {value!r}'))
    if update and edits:
        write_edits(path, lines, edits)
    return problems, len(edits)


def write_edits(path, lines, edits):
    if path.read_text() != '\n'.join(lines):
        raise DocError(f'{path}: changed while the commands ran; nothing written, run again')
    lines = list(lines)
    fig_edits = {k[1]: v for k, v in edits.items() if k[0] == 'fig'}
    for ln, subs in fig_edits.items():
        for item, value in subs:
            lines[ln - 1] = re.sub(r'(<!--\s*fig\s+' + re.escape(item.recipe) + r'\s*-->)'
                                   + re.escape(item.text) + r'(<!--\s*/fig\s*-->)',
                                   lambda m: m.group(1) + value + m.group(2), lines[ln - 1], 1)
    blocks = sorted((k for k in edits if k[0] != 'fig'), reverse=True)
    for start, end in blocks:
        lines[start:end] = edits[(start, end)]
    tmp = path.with_name(f'.{path.name}.docs-check.tmp')
    tmp.write_text('\n'.join(lines))
    shutil.copymode(path, tmp)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument('--check', action='store_true', help='fail on any difference')
    mode.add_argument('--update', action='store_true', help='rewrite figures and outputs')
    ap.add_argument('--tessel', required=True, help='the built tessel binary')
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--slow', choices=['skip', 'only', 'all'], default='all',
                    help='blocks and recipes marked slow: leave out, run alone, or include')
    ap.add_argument('--times', action='store_true', help='print the CPU time of each command')
    ap.add_argument('files', nargs='*', help='Markdown files (default: README.md, docs/*.md)')
    args = ap.parse_args()
    files = [Path(f).resolve() for f in args.files] or [ROOT / 'README.md'] + sorted(
        (ROOT / 'docs').glob('*.md'))
    try:
        docs, seqs, problems = gather(files, args.slow)
        runner = Runner(args.tessel, args.jobs)
        t0 = time.time()
        runner.run_all(seqs)
        wall = time.time() - t0
        changed = 0
        for path, lines, work in docs:
            p, n = check_doc(path, lines, work, runner, args.update)
            problems += p
            changed += n
    except DocError as e:
        print(f'docs_check: {e}', file=sys.stderr)
        return 2
    cpu = sum(runner.results[k][2] for k in seqs)
    if args.times:
        for k in sorted(seqs, key=lambda k: -runner.results[k][2]):
            print(f'{runner.results[k][2]:8.2f} s  {k[-1]}')
    for p in problems:
        print(p.show(), file=sys.stderr)
    names = ', '.join(str(p.relative_to(ROOT)) for p in files)
    print(f'docs_check: {names}: {len(seqs)} commands, {cpu:.1f} CPU s, {wall:.1f} s wall; '
          + (f'{changed} edits; ' if args.update else '') + f'{len(problems)} problems',
          file=sys.stderr)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
