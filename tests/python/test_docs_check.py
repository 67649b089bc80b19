"""scripts/docs_check.py's rewriting of an output block with `...` elisions (--update)."""
import os
import sys

sys.path.insert(0, os.path.join(os.environ.get('TESSEL_SOURCE_DIR', '.'), 'scripts'))
import docs_check  # noqa: E402


def test_refit_keeps_the_docs_header_and_its_elisions():
    # The header's version is normalised away when comparing; the doc keeps its own text.
    doc = ['tessel 0.1.0 | arch a (1) | engine x', 'cycles 10', '...', 'end']
    printed = docs_check.normalise('tessel 0.2.0 | arch a (1) | engine x\ncycles 12\nmid\nend')
    new = docs_check.refit(doc, printed)
    assert new == ['tessel 0.1.0 | arch a (1) | engine x', 'cycles 12', '...', 'end']
    assert docs_check.matches(new, printed)


def test_refit_takes_new_lines_inside_a_shown_stretch():
    doc = ['head', 'a 1', 'b 2', '...', 'tail']
    printed = ['head', 'a 1', 'new 7', 'b 3', 'x', 'tail']
    new = docs_check.refit(doc, printed)
    assert new == ['head', 'a 1', 'new 7', 'b 3', '...', 'tail']
    assert docs_check.matches(new, printed)


def test_refit_keeps_a_changed_first_and_last_line():
    # The header's hash changed (no digits-only match), and so did the last line: both are the
    # printed ones, the header with the doc's version, none dropped.
    doc = ['tessel 0.1.0 | arch a (92eb3aa7) | engine x', 'cycles 10', '...', 'end 1']
    printed = docs_check.normalise('tessel 0.1.0 | arch a (6de2efbc) | engine x\ncycles 12\nmid\nfinal')
    new = docs_check.refit(doc, printed)
    assert new == ['tessel 0.1.0 | arch a (6de2efbc) | engine x', 'cycles 12', '...', 'final']
    assert docs_check.matches(new, printed)


def test_refit_of_a_whole_block_keeps_the_version():
    doc = ['tessel 0.1.0 | compare on a (1111) | x', 'row 1']
    printed = docs_check.normalise('tessel 0.1.0 | compare on a (2222) | x\nrow 2')
    assert docs_check.refit(doc, printed) == ['tessel 0.1.0 | compare on a (2222) | x', 'row 2']


def test_a_commands_output_lines_know_where_they_stand():
    # A `# lines are output` block whose fence is the doc's line 10 (1-based): its body starts at
    # index 10 of the doc's lines. The first command spans two lines (a `\` continuation); its
    # output lines are the body's 2-4, the doc's 12-14; --update rewrites exactly those.
    body = ['tessel run --a x \\', '  --b y', '# ...', '# row 1', '# row 2', '', 'tessel other', '# out']
    b = docs_check.Block(path='doc.md', line=10, end=18, lang='sh', body=body)
    docs_check.parse_commands(b, True)
    first, second = b.cmds
    assert first.argv[-2:] == ['--b', 'y']
    assert first.expect == ['...', 'row 1', 'row 2']
    assert first.expect_span == (12, 15)
    assert second.expect == ['out'] and second.expect_span == (17, 18)
    # A new row inside the shown stretch is taken, the elision kept.
    printed = ['header', 'row 1', 'row 1.5', 'row 2']
    new = docs_check.refit(first.expect, printed)
    assert new == ['...', 'row 1', 'row 1.5', 'row 2'] and docs_check.matches(new, printed)
