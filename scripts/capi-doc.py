#!/usr/bin/env python3
# Writes the per-function part of Sources/HitTestKit/HitTestKit.docc/CAPI.md from the comments of
# hittest.h and hittest_solver.h (a maintainer's tool; scripts/docs.sh only checks that every
# exported function has its section). Run from the repository root:
#   python3 scripts/capi-doc.py --update
import re, sys, io, contextlib
def parse(path):
    text=open(path).read()
    out=[]
    pat=re.compile(r'/\* ---- (.+?) -+ \*/|/\*\*((?:(?!\*/).)*?)\*/\s*HT_API\s+([^;]+);|/\*\*((?:(?!\*/).)*?)\*/\s*(#define [^\n]+|typedef (?:struct|enum) \w+ \{.*?\} \w+;)', re.S)
    for m in pat.finditer(text):
        if m.group(5):
            if m.start() > typesEnd[path]:
                out.append(('type', m.group(0)))
        elif m.group(1):
            out.append(('section',m.group(1).strip()))
        else:
            doc=m.group(2); decl=' '.join(m.group(3).split()).replace('( ','(')
            lines=[re.sub(r'^\s*\* ?','',l) for l in doc.split('\n')]
            doc='\n'.join(lines).strip()
            name=re.search(r'(\w+)\s*\(',decl).group(1)
            out.append(('fn',(name,decl,doc)))
    return text,out
typesEnd={}
def md(doc):
    return re.sub(r'(?<![`\w>.])(HT_[A-Z_0-9]+|ht_[a-z_0-9]+)(?![`\w(])', r'`\1`', doc)
def types(text, start, end):
    lines=text.split('\n')
    i=next(k for k,l in enumerate(lines) if l.startswith(start))
    j=next(k for k,l in enumerate(lines) if l.startswith(end))
    return '\n'.join(lines[i:j+1])
def body():
  for path,title,start,end in [('CSources/CHitTest/include/hittest.h','hittest.h','/** Status of every call','typedef struct ht_tree ht_tree;'),
                                ('CSources/CHitTest/include/hittest_solver.h','hittest_solver.h','/** The opaque solver.','#define HT_SOLVER_MAX_HANDLES')]:
      text0=open(path).read(); typesEnd[path]=text0.index(end)
      text,items=parse(path)
      n=sum(1 for k,_ in items if k=='fn')
      print(f'## {title}\n')
      print(f'{n} functions, in the header\'s order, after its types and constants.\n')
      print(f'### Types and constants of {title}\n\n```c\n{types(text,start,end)}\n```\n')
      for k,d in items:
          if k=='section': print(f'### {d}\n')
          elif k=='type': print(f'```c\n{d}\n```\n')
          else:
              name,decl,doc=d
              print(f'#### {name}\n\n```c\n{decl};\n```\n\n{md(doc)}\n')

if __name__ == '__main__':
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        body()
    if '--update' in sys.argv:
        path = 'Sources/HitTestKit/HitTestKit.docc/CAPI.md'
        text = open(path).read()
        head = text[:text.index('\n## hittest.h\n') + 1]
        open(path, 'w').write(head + out.getvalue())
    else:
        sys.stdout.write(out.getvalue())
