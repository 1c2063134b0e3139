#!/usr/bin/env python3
"""Checks scan's pictures with parsers written from the formats' own grammars, not from the tool.

    check_graphs.py dot FILE       the DOT language grammar (graphviz.org/doc/info/lang.html)
    check_graphs.py mermaid FILE   Mermaid flowchart syntax: the header, node shapes, labelled edges
    check_graphs.py html FILE      well-formed HTML (html.parser), no script, nothing from the network

Prints one line per problem and exits 1, or prints a summary (nodes and edges found) and exits 0.
When pydot is installed, the DOT file is also parsed by it and must give the same counts.
Standard library only otherwise, so it runs where nothing can be installed.
"""
import re
import sys
from html.parser import HTMLParser


class DotError(Exception):
    pass


def dot_tokens(text):
    """The DOT lexer: IDs (names, numerals, quoted strings, HTML strings), edge ops, punctuation."""
    tokens = []
    i = 0
    while i < len(text):
        c = text[i]
        if c.isspace():
            i += 1
        elif text.startswith("//", i) or (c == "#" and (i == 0 or text[i - 1] == "\n")):
            j = text.find("\n", i)
            i = len(text) if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            if j < 0:
                raise DotError("unclosed comment")
            i = j + 2
        elif c == '"':
            j = i + 1
            while j < len(text) and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            if j >= len(text):
                raise DotError("unclosed string at offset %d" % i)
            tokens.append(("ID", text[i + 1:j].replace('\\"', '"')))
            i = j + 1
        elif c == "<":
            depth, j = 0, i
            while j < len(text):
                depth += {"<": 1, ">": -1}.get(text[j], 0)
                if depth == 0:
                    break
                j += 1
            tokens.append(("ID", text[i + 1:j]))
            i = j + 1
        elif text.startswith("->", i) or text.startswith("--", i):
            tokens.append(("EDGEOP", text[i:i + 2]))
            i += 2
        elif c in "{}[];,=:":
            tokens.append((c, c))
            i += 1
        else:
            m = re.compile(r"[A-Za-z_\x80-\uffff][A-Za-z_0-9\x80-\uffff]*|-?(\.[0-9]+|[0-9]+(\.[0-9]*)?)").match(text, i)
            if not m:
                raise DotError("unexpected character %r at offset %d" % (c, i))
            tokens.append(("ID", m.group(0)))
            i = m.end()
    return tokens


class DotParser:
    """graph : [strict] (graph|digraph) [ID] '{' stmt_list '}'"""

    def __init__(self, tokens):
        self.tokens, self.i = tokens, 0
        self.nodes, self.edges, self.directed = set(), [], False

    def peek(self, offset=0):
        j = self.i + offset
        return self.tokens[j] if j < len(self.tokens) else ("EOF", "")

    def take(self, kind, value=None):
        token = self.peek()
        if token[0] != kind or (value is not None and token[1].lower() != value):
            raise DotError("expected %s, found %r" % (value or kind, token[1]))
        self.i += 1
        return token[1]

    def graph(self):
        if self.peek()[0] == "ID" and self.peek()[1].lower() == "strict":
            self.i += 1
        kind = self.take("ID").lower()
        if kind not in ("graph", "digraph"):
            raise DotError("expected graph or digraph, found %r" % kind)
        self.directed = kind == "digraph"
        if self.peek()[0] == "ID":
            self.i += 1
        self.take("{")
        self.stmt_list()
        self.take("}")
        if self.peek()[0] != "EOF":
            raise DotError("text after the graph")

    def stmt_list(self):
        while self.peek()[0] not in ("}", "EOF"):
            self.stmt()
            if self.peek()[0] == ";":
                self.i += 1

    def stmt(self):
        token = self.peek()
        if token[0] == "ID" and token[1].lower() in ("graph", "node", "edge") and self.peek(1)[0] == "[":
            self.i += 1
            self.attr_list()
        elif token[0] == "ID" and self.peek(1)[0] == "=":
            self.i += 1
            self.take("=")
            self.take("ID")
        else:
            ends = [self.node_or_subgraph()]
            while self.peek()[0] == "EDGEOP":
                op = self.take("EDGEOP")
                if op != ("->" if self.directed else "--"):
                    raise DotError("edge operator %s in a %s" % (op, "digraph" if self.directed else "graph"))
                ends.append(self.node_or_subgraph())
            for a, b in zip(ends, ends[1:]):
                self.edges.append((a, b))
            if self.peek()[0] == "[":
                self.attr_list()

    def node_or_subgraph(self):
        if self.peek()[0] == "{" or (self.peek()[0] == "ID" and self.peek()[1].lower() == "subgraph"):
            if self.peek()[0] == "ID":
                self.i += 1
                if self.peek()[0] == "ID":
                    self.i += 1
            self.take("{")
            self.stmt_list()
            self.take("}")
            return None
        name = self.take("ID")
        if self.peek()[0] == ":":
            self.i += 1
            self.take("ID")
            if self.peek()[0] == ":":
                self.i += 1
                self.take("ID")
        self.nodes.add(name)
        return name

    def attr_list(self):
        while self.peek()[0] == "[":
            self.i += 1
            while self.peek()[0] != "]":
                self.take("ID")
                self.take("=")
                self.take("ID")
                if self.peek()[0] in (",", ";"):
                    self.i += 1
            self.take("]")


def check_dot(text):
    parser = DotParser(dot_tokens(text))
    parser.graph()
    counts = (len(parser.nodes), len(parser.edges))
    try:
        import pydot
    except ImportError:
        return "dot: %d nodes, %d edges" % counts
    graphs = pydot.graph_from_dot_data(text)
    if not graphs or len(graphs) != 1:
        raise DotError("pydot does not read the graph")
    graph = graphs[0]
    theirs = (len({n.get_name() for n in graph.get_nodes() if n.get_name() not in ("node", "edge", "graph")}),
              len(graph.get_edges()))
    if theirs != counts:
        raise DotError("pydot reads %d nodes and %d edges, this parser %d and %d" % (theirs + counts))
    return "dot: %d nodes, %d edges (pydot agrees)" % counts


MERMAID_LABEL = r'"(?:[^"<>]|#[0-9]+;)*"'
MERMAID_NODE = re.compile(r"^([A-Za-z][A-Za-z0-9_]*)(\[\[%s\]\]|\(\[%s\]\)|\[%s\])$" % ((MERMAID_LABEL,) * 3))
MERMAID_EDGE = re.compile(r"^([A-Za-z][A-Za-z0-9_]*) -->(?:\|(%s)\|)? ([A-Za-z][A-Za-z0-9_]*)$" % MERMAID_LABEL)


def check_mermaid(text):
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("%%")]
    if not lines or not re.match(r"^(flowchart|graph) (LR|RL|TB|TD|BT)$", lines[0]):
        raise DotError("the first line is not 'flowchart DIRECTION'")
    declared, edges = set(), 0
    for number, line in enumerate(lines[1:], start=2):
        node = MERMAID_NODE.match(line)
        edge = MERMAID_EDGE.match(line)
        if node:
            if node.group(1) in declared:
                raise DotError("line %d: node %s declared twice" % (number, node.group(1)))
            declared.add(node.group(1))
        elif edge:
            for end in (edge.group(1), edge.group(3)):
                if end not in declared:
                    raise DotError("line %d: edge to undeclared node %s" % (number, end))
            edges += 1
        else:
            raise DotError("line %d is neither a node nor an edge: %s" % (number, line))
    return "mermaid: %d nodes, %d edges" % (len(declared), edges)


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Balanced(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.problems, self.tags = [], [], 0

    def handle_starttag(self, tag, attrs):
        self.tags += 1
        if tag == "script":
            self.problems.append("a <script> element")
        for name, value in attrs:
            if value and re.search(r"(https?:)?//|url\(", value) and name in ("src", "href", "style", "xlink:href", "action"):
                self.problems.append("<%s %s=%r> loads from elsewhere" % (tag, name, value))
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))

    def handle_startendtag(self, tag, attrs):
        self.tags += 1

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1][0] != tag:
            self.problems.append("line %d: </%s> closes %s" % (self.getpos()[0], tag, self.stack[-1][0] if self.stack else "nothing"))
            return
        self.stack.pop()


def check_html(text):
    if not text.lstrip().lower().startswith("<!doctype html>"):
        raise DotError("no <!DOCTYPE html>")
    if re.search(r"https?://", text):
        raise DotError("the page names a network address")
    parser = Balanced()
    parser.feed(text)
    parser.close()
    problems = parser.problems + ["<%s> opened at line %d is never closed" % (tag, pos[0]) for tag, pos in parser.stack]
    if problems:
        raise DotError("; ".join(problems))
    if "<svg" not in text or "<table" not in text:
        raise DotError("no inline <svg> graph or <table> heat map")
    return "html: %d elements, balanced" % parser.tags


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("dot", "mermaid", "html"):
        print(__doc__)
        return 2
    with open(sys.argv[2], encoding="utf-8") as f:
        text = f.read()
    try:
        print({"dot": check_dot, "mermaid": check_mermaid, "html": check_html}[sys.argv[1]](text))
    except DotError as error:
        print("%s: %s" % (sys.argv[2], error))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
