#!/usr/bin/env python3
"""The per-function part of the C API article (CAPI_MD below), written from the comments of the
C core's public headers: their types and constants, then one section per exported function, in
each header's order. The article's hand-written head (everything before `## hittest.h`) is kept.
Run from the repository root:

    python3 scripts/capi-doc.py            prints the generated part
    python3 scripts/capi-doc.py --update   writes it into CAPI_MD
    python3 scripts/capi-doc.py --check    fails (exit 1), naming the first function whose
                                           section differs, when CAPI_MD is not what the
                                           headers say (scripts/docs.sh runs this)
"""
import difflib
import io
import re
import sys

# The article; its one place here (the DocC catalog may move).
CAPI_MD = 'Sources/HitTestKit/HitTestKit.docc/CAPI.md'

# Each public header: its path, its title in the article, and the first and last lines of the
# block of types and constants quoted whole at the head of its part.
HEADERS = [
    ('CSources/CHitTest/include/hittest.h', 'hittest.h',
     '/** Status of every call', 'typedef struct ht_tree ht_tree;'),
    ('CSources/CLayoutSolver/include/hittest_solver.h', 'hittest_solver.h',
     '/** The opaque solver.', '#define HT_SOLVER_MAX_HANDLES'),
]

ITEM = re.compile(
    r'/\* ---- (.+?) -+ \*/'                                   # a section banner
    r'|/\*\*((?:(?!\*/).)*?)\*/\s*HT_API\s+([^;]+);'           # a documented function
    r'|/\*\*((?:(?!\*/).)*?)\*/\s*(#define [^\n]+|typedef (?:struct|enum) \w+ \{.*?\} \w+;)',  # a type
    re.S)


def parse(text, types_end):
    """The header's items in order: ('section', title), ('type', text) after the quoted block,
    ('fn', (name, declaration, doc))."""
    items = []
    for m in ITEM.finditer(text):
        if m.group(5):
            if m.start() > types_end:
                items.append(('type', m.group(0)))
        elif m.group(1):
            items.append(('section', m.group(1).strip()))
        else:
            doc = '\n'.join(re.sub(r'^\s*\* ?', '', line) for line in m.group(2).split('\n')).strip()
            decl = ' '.join(m.group(3).split()).replace('( ', '(')
            name = re.search(r'(\w+)\s*\(', decl).group(1)
            items.append(('fn', (name, decl, doc)))
    return items


def md(doc):
    """Code spans around the API's names in a comment."""
    return re.sub(r'(?<![`\w>.])(HT_[A-Z_0-9]+|ht_[a-z_0-9]+)(?![`\w(])', r'`\1`', doc)


def quoted_block(text, start, end):
    lines = text.split('\n')
    i = next(k for k, line in enumerate(lines) if line.startswith(start))
    j = next(k for k, line in enumerate(lines) if line.startswith(end))
    return '\n'.join(lines[i:j + 1])


def generate():
    out = io.StringIO()
    for path, title, start, end in HEADERS:
        text = open(path).read()
        items = parse(text, text.index(end))
        n = sum(1 for kind, _ in items if kind == 'fn')
        out.write(f'## {title}\n\n')
        out.write(f'{n} functions, in the header\'s order, after its types and constants.\n\n')
        out.write(f'### Types and constants of {title}\n\n```c\n{quoted_block(text, start, end)}\n```\n\n')
        for kind, item in items:
            if kind == 'section':
                out.write(f'### {item}\n\n')
            elif kind == 'type':
                out.write(f'```c\n{item}\n```\n\n')
            else:
                name, decl, doc = item
                out.write(f'#### {name}\n\n```c\n{decl};\n```\n\n{md(doc)}\n\n')
    return out.getvalue()


def split_article(text):
    """(head, generated part) of the article: the part starts at `## hittest.h`."""
    marker = '\n## ' + HEADERS[0][1] + '\n'
    at = text.find(marker)
    if at < 0:
        sys.exit(f'capi-doc: {CAPI_MD} has no "## {HEADERS[0][1]}" heading to write after')
    return text[:at + 1], text[at + 1:]


def sections(part):
    """The part cut at each heading: [(heading, text)] in order."""
    out, heading, lines = [], '(start)', []
    for line in part.split('\n'):
        if line.startswith('#'):
            out.append((heading, '\n'.join(lines)))
            heading, lines = line, []
        lines.append(line)
    out.append((heading, '\n'.join(lines)))
    return out


def first_difference(have, want):
    """A sentence naming where the article first differs from the headers."""
    a, b = sections(have), sections(want)
    for k in range(max(len(a), len(b))):
        if k >= len(a):
            return f'{b[k][0]!r} is missing from the article'
        if k >= len(b):
            return f'{a[k][0]!r} is in the article but in no header'
        if a[k] != b[k]:
            what = b[k][0]
            if what.startswith('#### '):
                what = f'function {what[5:]}'
            if a[k][0] != b[k][0]:
                return f'{what}: the article has {a[k][0]!r} there'
            diff = [line for line in difflib.unified_diff(a[k][1].split('\n'), b[k][1].split('\n'),
                                                         'CAPI.md', 'headers', lineterm='', n=0)]
            return f'{what} differs from its header:\n' + '\n'.join('    ' + d for d in diff[2:12])
    return 'the text differs'


def main(argv):
    generated = generate()
    if '--update' in argv:
        head, _ = split_article(open(CAPI_MD).read())
        open(CAPI_MD, 'w').write(head + generated)
    elif '--check' in argv:
        _, part = split_article(open(CAPI_MD).read())
        if part != generated:
            print(f'capi-doc: {CAPI_MD} is not what the headers say: {first_difference(part, generated)}\n'
                  f'(the headers\' comments are the source: python3 scripts/capi-doc.py --update)',
                  file=sys.stderr)
            return 1
        n = generated.count('\n#### ')
        print(f'capi-doc: {CAPI_MD} matches the comments of '
              f'{" and ".join(title for _, title, _, _ in HEADERS)} ({n} functions)')
    else:
        sys.stdout.write(generated)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
