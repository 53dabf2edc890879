#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read the Markdown documents as a reader does: their prose, sentences,
headings, links and figures. Used by tests/host/210-doc-figures.sh and
tests/host/215-docs.sh; each subcommand prints what it found wrong and exits 1.

  docs.py sentences FILE MAX        words per sentence of FILE's prose at most MAX
  docs.py terms FILE... -- TERM=REGEX...
                                    the first use of TERM, over FILEs in order,
                                    is explained (REGEX) in its sentence or the next
  docs.py refs FILE...              every relative link (path, #anchor) resolves, and
                                    every 'user guide, "Title"' names a heading there
  docs.py headings FILE REGEX...    FILE's '## ' headings match the REGEXes in order
  docs.py figures TOP LIST OUT      each figure LIST names agrees with benchmarks.md;
                                    OUT gets each as the documents should say it
  docs.py figures-covered FILE LIST every figure in FILE's prose and tables is in LIST
                                    (the checked figures) or in a paragraph or row
                                    that links benchmarks.md
"""
import os
import re
import sys


def blocks(path):
    """(kind, text) in document order: kind is 'para', 'row' (a table row),
    'heading' or 'code'; a paragraph's lines are joined, a list item is a
    paragraph of its own."""
    out, para, code = [], [], None
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')

    def flush():
        if para:
            out.append(('para', ' '.join(para)))
            para.clear()
    for line in lines:
        s = line.strip()
        if code is not None:
            if s.startswith('```'):
                out.append(('code', '\n'.join(code)))
                code = None
            else:
                code.append(line)
            continue
        if s.startswith('```'):
            flush()
            code = []
        elif not s:
            flush()
        elif s.startswith('#'):
            flush()
            out.append(('heading', s))
        elif s.startswith('|'):
            flush()
            if not re.fullmatch(r'[|\s:-]+', s):
                out.append(('row', s))
        elif re.match(r'([-*]|\d+\.)\s', s):
            flush()
            para.append(s)
        else:
            para.append(s)
    flush()
    return out


def plain(text):
    """Prose as read: a link is its text, an inline code span one word."""
    text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', text)
    text = re.sub(r'`[^`]*`', 'CODE', text)
    return re.sub(r'^([-*]|\d+\.)\s+', '', text)


SENTENCE_END = re.compile(r'(?<=[.!?])["\')\]]*\s+(?=[A-Z`(\[0-9"])')


def sentences(text):
    return [s for s in SENTENCE_END.split(text) if s.strip()]


def words(sentence):
    return [w for w in plain(sentence).split() if re.search(r'\w', w)]


def cmd_sentences(path, limit):
    found = []
    for kind, text in blocks(path):
        if kind == 'para':
            for s in sentences(text):
                found.append((len(words(s)), s))
    if not found:
        print(f'{path}: no prose found')
        return 1
    total = sum(n for n, _ in found)
    mean = total / len(found)
    print(f'{path}: {len(found)} sentences, {total} words, {mean:.1f} words a sentence (at most {limit})')
    if mean <= limit:
        return 0
    print('longest:')
    for n, s in sorted(found, key=lambda x: -x[0])[:5]:
        print(f'  {n} words: {s[:160]}...')
    return 1


def cmd_terms(paths, specs):
    bad = 0
    for spec in specs:
        term, regex = spec.split('=', 1)
        first = None
        for path in paths:
            units = []
            for kind, text in blocks(path):
                if kind == 'para':
                    units += sentences(text)
                elif kind == 'row':
                    units.append(text)
            for i, u in enumerate(units):
                if term in u:
                    first = (path, u, ' '.join(units[i:i + 2]))
                    break
            if first:
                break
        if not first:
            print(f'{term}: used nowhere')
            bad = 1
        elif not re.search(regex, first[2]):
            print(f'{term}: first used in {first[0]}, not explained there (/{regex}/):\n  {first[1][:300]}')
            bad = 1
        else:
            print(f'{term}: explained at its first use, in {first[0]}')
    return bad


def anchor(heading):
    """GitHub's anchor for a heading."""
    h = heading.lstrip('#').strip().lower()
    h = re.sub(r'[^\w\- ]', '', h)
    return h.replace(' ', '-')


def anchors(path):
    return {anchor(t) for k, t in blocks(path) if k == 'heading'}


def titles(path):
    return {t.lstrip('#').strip() for k, t in blocks(path) if k == 'heading'}


def cmd_refs(paths):
    bad = 0
    for path in paths:
        base = os.path.dirname(path)
        with open(path, encoding='utf-8') as f:
            text = f.read()
        for target in re.findall(r'\]\(([^)\s]+)\)', text):
            if re.match(r'[a-z]+:', target):
                continue
            file, _, frag = target.partition('#')
            dest = os.path.normpath(os.path.join(base, file)) if file else path
            if not os.path.exists(dest):
                print(f'{path}: link to {target}: no {dest}')
                bad = 1
            elif frag and frag not in anchors(dest):
                print(f'{path}: link to {target}: no heading "#{frag}" in {dest}')
                bad = 1
        guide = os.path.join(os.path.dirname(os.path.abspath(sys.argv[0])), '../../Documentation/user-guide.md')
        known = titles(os.path.normpath(guide))
        flat = ' '.join(text.split())
        for title in re.findall(r'user guide(?:, |\'s (?:chapter |section )?)"([^"]+)"', flat):
            if not any(t.startswith(title) for t in known):
                print(f'{path}: names the user guide\'s "{title}": no such heading there')
                bad = 1
    return bad


def cmd_headings(path, regexes):
    heads = [t[3:] for k, t in blocks(path) if k == 'heading' and t.startswith('## ')]
    at = 0
    for rx in regexes:
        while at < len(heads) and not re.search(rx, heads[at]):
            at += 1
        if at == len(heads):
            print(f'{path}: no "## " heading matching /{rx}/ after the previous one; its chapters:')
            print('\n'.join('  ' + h for h in heads))
            return 1
        at += 1
    return 0


FIGURE = re.compile(r'(?<![\w.,-])\d[\d,.]*\s?(KiB|kB|KB|MiB|MB|bytes|ms|us|µs|min|times)\b')


def cmd_figures_covered(path, listfile):
    with open(listfile, encoding='utf-8') as f:
        checked = [line.rstrip('\n').split('\t', 1)[1] for line in f
                   if '\t' in line and os.path.abspath(path).endswith('/' + line.split('\t')[0])]
    bad = 0
    for kind, text in blocks(path):
        if kind not in ('para', 'row') or 'benchmarks.md' in text:
            continue
        flat = digits(text)
        for m in FIGURE.finditer(flat):
            number = m.group(0).split()[0].rstrip('.')
            if not any(c in flat and number in c for c in checked):
                print(f'{path}: "{m.group(0)}" neither checked against benchmarks.md nor beside a link to it:')
                print(f'  {text[:200]}')
                bad = 1
    return bad


def digits(text):
    """1,479,092 as 1479092, a figure's line breaks as spaces."""
    return re.sub(r'(\d),(\d{3})\b', r'\1\2', re.sub(r'(\d),(\d{3})\b', r'\1\2', ' '.join(text.split())))


def bench_value(bench, section, row, column):
    """The figure in benchmarks.md's section (a '## ' heading starting so):
    column N (from 1) of the first table row matching ROW, or the group of
    /REGEX/ on the first line matching ROW."""
    lines, inside = [], False
    for line in bench.split('\n'):
        if line.startswith('## '):
            inside = line[3:].startswith(section)
        elif inside:
            lines.append(line)
    for line in lines:
        if not re.search(row, line):
            continue
        if column.startswith('/'):
            m = re.search(column.strip('/'), line)
            if not m:
                continue
            value = m.group(1)
        else:
            cells = [c.strip() for c in line.strip().strip('|').split('|')]
            if int(column) > len(cells):
                continue
            value = cells[int(column) - 1]
        value = re.sub(r'\s*\[.*', '', value).lstrip('+-')
        return digits(value)
    return None


def cmd_figures(top, listfile, outfile):
    with open(os.path.join(top, 'Documentation/benchmarks.md'), encoding='utf-8') as f:
        bench = f.read()
    bad, n, out = 0, 0, []
    with open(listfile, encoding='utf-8') as f:
        entries = [line.strip() for line in f if line.strip() and not line.startswith('#')]
    for entry in entries:
        doc, text, section, row, column = [x.strip() for x in entry.split(' @@ ')]
        n += 1
        value = bench_value(bench, section, row, column)
        if value is None:
            print(f'benchmarks.md, "{section}": no figure for /{row}/ {column}')
            bad = 1
            continue
        want = digits(text.replace('%s', value))
        out.append(f'{doc}\t{want}')
        path = os.path.join(top, doc)
        flat = digits(open(path, encoding='utf-8').read()) if os.path.exists(path) else ''
        if want in flat:
            continue
        bad = 1
        before = digits(text.split('%s')[0])[-40:]
        said = [flat[i + len(before):i + len(before) + 24] for i in [flat.find(before)] if before and i >= 0]
        print(f'{doc}: should say "{want}" (benchmarks.md, "{section}")' +
              (f'; says "{before}{said[0]}..."' if said else '; the sentence is not there'))
    with open(outfile, 'w', encoding='utf-8') as f:
        f.write('\n'.join(out) + '\n')
    print(f'{n} figures, {"some" if bad else "none"} different from benchmarks.md')
    return bad


def main(argv):
    cmd, args = argv[1], argv[2:]
    if cmd == 'sentences':
        return cmd_sentences(args[0], float(args[1]))
    if cmd == 'terms':
        i = args.index('--')
        return cmd_terms(args[:i], args[i + 1:])
    if cmd == 'refs':
        return cmd_refs(args)
    if cmd == 'headings':
        return cmd_headings(args[0], args[1:])
    if cmd == 'figures':
        return cmd_figures(args[0], args[1], args[2])
    if cmd == 'figures-covered':
        return cmd_figures_covered(args[0], args[1])
    print(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
