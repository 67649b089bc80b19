"""How scripts/docs_check.py compares an output block with what a command printed, and how
--update rewrites one that has `...` elisions."""
import difflib
import re

NORMALISE = [  # (pattern, replacement): what legitimately varies between runs
    (re.compile(r'^(tessel) \d+\.\d+\.\d+\S*( \|)', re.M), r'\1 X\2'),
    (re.compile(r'\b(in|took|elapsed) \d+(\.\d+)? ?(s|ms|min)\b'), r'\1 T'),
]


def normalise(text):
    text = '\n'.join(l.rstrip() for l in text.split('\n')).strip('\n')
    for pattern, repl in NORMALISE:
        text = pattern.sub(repl, text)
    return text.split('\n')


def matches(doc, printed):
    """doc lines, `...` standing for any run of lines, against printed lines."""
    doc, printed = normalise('\n'.join(doc)), normalise('\n'.join(printed))
    segs, cur = [], []
    for l in doc:
        if l.strip() == '...':
            segs.append(cur)
            cur = []
        else:
            cur.append(l)
    segs.append(cur)
    if len(segs) == 1:
        return doc == printed
    pos = 0
    for n, seg in enumerate(segs):
        if n == 0:
            if printed[:len(seg)] != seg:
                return False
            pos = len(seg)
        elif n == len(segs) - 1:
            return len(printed) - len(seg) >= pos and (not seg or printed[-len(seg):] == seg)
        else:
            k = next((k for k in range(pos, len(printed) - len(seg) + 1)
                      if printed[k:k + len(seg)] == seg), None)
            if k is None:
                return False
            pos = k + len(seg)
    return True


def refit(doc, printed):
    """The printed lines in the doc's shape: each stretch between `...` lines replaced by the
    printed lines it lines up with (numbers ignored when lining up)."""
    # A new header line takes the doc's version back (the printed one is normalised away).
    version = next((m.group(1) for m in (re.match(r'^tessel (\d+\.\d+\.\d+\S*) \|', l) for l in doc) if m),
                   None)
    restore = lambda s: re.sub(r'^tessel X \|', f'tessel {version} |', s) if version else s
    if not any(l.strip() == '...' for l in doc):
        return [restore(p) for p in printed]
    skel = lambda s: re.sub(r'[-+]?[\d.,]+', '#', s)
    # Doc lines are lined up in their normalised form (a header's version, as printed), and a
    # printed line that is a doc line normalised keeps the doc's own text.
    norm = lambda s: normalise(s)[0] if s.strip() else s
    kept = [(n, l) for n, l in enumerate(doc) if l.strip() != '...']
    sm = difflib.SequenceMatcher(None, [skel(norm(l)) for _, l in kept],
                                 [skel(l) for l in printed], autojunk=False)
    to_printed = {}
    for a, b, size in sm.get_matching_blocks():
        for k in range(size):
            to_printed[kept[a + k][0]] = b + k
    from_printed = {b: n for n, b in to_printed.items()}
    as_doc = lambda b: (doc[from_printed[b]] if b in from_printed
                        and norm(doc[from_printed[b]]) == printed[b] else restore(printed[b]))
    out, seg = [], []
    for n, l in enumerate(doc + ['...']):
        if l.strip() != '...':
            seg.append(n)
            continue
        hits = [to_printed[k] for k in seg if k in to_printed]
        if hits:
            # A stretch that opens the block starts where the output starts, one that closes
            # it ends where the output ends: a changed first or last line is kept, not lost.
            lo = 0 if seg and seg[0] == 0 else min(hits)
            hi = len(printed) - 1 if n == len(doc) else max(hits)
            out += [as_doc(b) for b in range(lo, hi + 1)]
        elif seg and n == len(doc):  # a closing stretch nothing lines up with: the output's end
            out += [restore(p) for p in printed[-len(seg):]]
        elif seg and seg[0] == 0:  # an opening one: the output's start
            out += [restore(p) for p in printed[:len(seg)]]
        else:
            out += [doc[k] for k in seg]
        if n < len(doc):
            out.append(l)
        seg = []
    return out
