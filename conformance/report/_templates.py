"""The template environments the renderings use: escaping is the default, never a call site's.

Each format has one :class:`jinja2.Environment` over the templates shipped in
``conformance/report/templates/``, with ``StrictUndefined`` (a misspelt name fails the
rendering instead of printing nothing) and a ``finalize`` that every ``{{ value }}`` passes
through on its way out:

- HTML (``*.html.j2``): the value cut to :data:`SHOWN` characters with a note, control
  characters and lone surrogates as visible escapes, then HTML-escaped (text and attribute
  values alike). Autoescaping is on as well; the finalize returns :class:`markupsafe.Markup` so
  nothing is escaped twice. It escapes with :func:`html.escape` (``'`` as ``&#x27;``), the
  escaping the reports have always had, so a report renders byte for byte as it did.
- Markdown (``*.md.j2``): the value as one line of Markdown prose (:func:`md_cell`): no table
  break, no HTML, no image. A value already rendered as Markdown (a code span, a fence: the
  ``code`` and ``fence`` filters) is a :class:`MarkdownText` and passes as it is.

- JUnit XML (``*.xml.j2``): the value cut to :data:`JUNIT_TEXT` characters, the characters XML
  1.0 cannot carry as visible escapes (:func:`xml_legal`), then escaped for an attribute value
  (the stricter of XML's two contexts: quotes and line breaks too); an element's text takes the
  ``text`` filter, which escapes it as character data, as :mod:`xml.etree.ElementTree` does.

Only a :class:`~markupsafe.Markup` (HTML, XML) or a :class:`MarkdownText` (Markdown) reaches the
output unescaped, and only the filters below and template macros make them; a template that
writes ``|safe`` must say why in a comment (``tests/conformance/report/test_templates.py`` holds
every one to an allow-list).
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Callable, Mapping
from typing import Any

import jinja2
from markupsafe import Markup

__all__ = [
    "SHOWN",
    "MarkdownText",
    "cap",
    "code_span",
    "fence",
    "html_environment",
    "join_text",
    "markdown_environment",
    "md_cell",
    "md_line",
    "printable",
    "xml_environment",
    "xml_legal",
]

#: Longest string shown in a rendering (report.json keeps every character).
SHOWN = 20_000
_UNPRINTABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def printable(text: str) -> str:
    """Control characters (but newline, tab and CR) and lone surrogates as visible escapes."""

    def escape(match: re.Match[str]) -> str:
        code = ord(match.group())
        return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"

    return _UNPRINTABLE.sub(escape, text)


def cap(value: Any, limit: int = SHOWN) -> str:
    """``value`` as text, cut to ``limit`` characters with a note saying how many more."""
    text = str(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text) - limit} more characters in report.json)"


# ------------------------------------------------------------------------------ html


def _html_finalize(value: Any) -> Markup:
    """Every ``{{ value }}`` of an HTML template: capped, printable, escaped (a
    :class:`Markup`, a macro's output, passes as it is)."""
    if isinstance(value, Markup):
        return value
    return Markup(html.escape(printable(cap(value)), quote=True))


def _environment(
    loader: jinja2.BaseLoader,
    *,
    autoescape: bool,
    finalize: Callable[[Any], Any],
    filters: Mapping[str, Callable[..., Any]],
) -> jinja2.Environment:
    """An environment of the kit's templates: strict (an undefined name is an error), blocks
    trimmed, the trailing newline kept; ``finalize`` escapes every ``{{ value }}``."""
    environment = jinja2.Environment(
        loader=loader,
        autoescape=autoescape,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=finalize,
    )
    environment.filters.update(filters)
    return environment


@functools.cache
def html_environment(package: str = "conformance.report") -> jinja2.Environment:
    """The HTML templates' environment (autoescaping, strict, capped and printable values):
    ``package``'s ``templates`` folder, then the report's (whose macros any page may import;
    the site's pages are built this way, :mod:`conformance.site`)."""
    loaders = [jinja2.PackageLoader(package, "templates")]
    if package != "conformance.report":
        loaders.append(jinja2.PackageLoader("conformance.report", "templates"))
    return _environment(
        jinja2.ChoiceLoader(loaders),
        autoescape=True,
        finalize=_html_finalize,
        filters={"cap": cap, "join_text": join_text},
    )


def join_text(items: Any, separator: str) -> str:
    """``items`` joined as plain text, escaped afterwards like any value (Jinja2's ``join``
    escapes each item on its own and returns markup, which the finalize would not cap)."""
    return separator.join(str(item) for item in items)


# ------------------------------------------------------------------------------ markdown


class MarkdownText(str):
    """Text already rendered as Markdown (a code span, a fence): the Markdown templates' one
    way past :func:`md_cell`, made only by :func:`code_span` and :func:`fence`."""

    __slots__ = ()


def md_line(text: Any, limit: int) -> str:
    """``text`` cut to ``limit`` on one line that cannot break a table row, control characters
    as escapes (otherwise the raw characters, for a code span, where Markdown shows everything
    literally)."""
    line = cap(text, limit).replace("|", "\\|").replace("\n", " ").replace("\r", " ")
    return printable(line)


#: What Markdown would turn into markup from plain text: the HTML specials (a raw ``<script>``
#: or ``<img onerror>`` in an implementation's name is HTML to GitHub and to most renderers),
#: ``![`` (an image the reader's browser would load), and ``](`` / ``][`` (a link, inline or by
#: reference: ``[docs](javascript:...)`` is a link a reader would click). Each becomes an
#: entity or an escape that renders as the character itself.
_MD_MARKUP = re.compile(r"[&<>]|!\[|\]\(|\]\[")
_MD_ESCAPES = {
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
    "![": "!\\[",
    "](": "]\\(",
    "][": "]\\[",
}


def md_cell(text: Any, limit: int = 300) -> str:
    """``text`` as one line of Markdown prose: no table break, no HTML, no image."""
    return _MD_MARKUP.sub(lambda m: _MD_ESCAPES[m.group()], md_line(text, limit))


def code_span(text: Any, limit: int = 300) -> MarkdownText:
    """An inline code span that survives backticks in ``text`` (a code span shows HTML as
    text, so nothing in it is escaped but the table's ``|``)."""
    body = md_line(text, limit)
    ticks = "`"
    while ticks in body:
        ticks += "`"
    pad = " " if body.startswith("`") or body.endswith("`") else ""
    return MarkdownText(f"{ticks}{pad}{body}{pad}{ticks}")


def fence(text: Any, lang: str = "") -> MarkdownText:
    """A fenced block longer than any run of backticks in ``text`` (shown literally, control
    characters as escapes)."""
    body = printable(str(text))
    ticks = "```"
    while ticks in body:
        ticks += "`"
    return MarkdownText(f"{ticks}{lang}\n{body}\n{ticks}")


def _md_finalize(value: Any) -> str:
    """Every ``{{ value }}`` of a Markdown template: one line of escaped prose, cut at 300
    characters (``|cell(n)`` says otherwise); a :class:`MarkdownText` passes as it is."""
    if isinstance(value, MarkdownText):
        return value
    return md_cell(value)


def _cell(value: Any, limit: int = 300) -> MarkdownText:
    """``value`` as escaped prose cut to ``limit`` (the finalize's escaping, another limit)."""
    return MarkdownText(md_cell(value, limit))


@functools.cache
def markdown_environment() -> jinja2.Environment:
    """The Markdown templates' environment (every value escaped as prose, strict)."""
    return _environment(
        jinja2.PackageLoader("conformance.report", "templates"),
        autoescape=False,
        finalize=_md_finalize,
        filters={"cap": cap, "cell": _cell, "code": code_span, "fence": fence},
    )


# ------------------------------------------------------------------------------ xml

_XML_INVALID = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
#: Longest text put into one JUnit element or attribute.
JUNIT_TEXT = 64_000


def xml_legal(text: Any, limit: int = JUNIT_TEXT) -> str:
    """Text XML 1.0 can carry: illegal characters (NUL, most C0 controls, lone surrogates,
    U+FFFE/U+FFFF) as visible escapes; cut to ``limit``."""

    def escape(match: re.Match[str]) -> str:
        code = ord(match.group())
        return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"

    return _XML_INVALID.sub(escape, cap(text, limit))


#: XML's escapes, as ElementTree writes them: character data, then attribute values.
_XML_TEXT = (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"))
_XML_ATTRIBUTE = (*_XML_TEXT, ('"', "&quot;"), ("\r", "&#13;"), ("\n", "&#10;"), ("\t", "&#09;"))


def _xml_escape(text: str, escapes: tuple[tuple[str, str], ...]) -> Markup:
    for character, entity in escapes:
        text = text.replace(character, entity)
    return Markup(text)


def _xml_finalize(value: Any) -> Markup:
    """Every ``{{ value }}`` of an XML template: legal XML, escaped for an attribute value (a
    :class:`Markup`, the ``text`` filter's output, passes as it is)."""
    if isinstance(value, Markup):
        return value
    return _xml_escape(xml_legal(value), _XML_ATTRIBUTE)


def _xml_text(value: Any) -> Markup:
    """``value`` as an element's character data: legal XML, ``&``, ``<`` and ``>`` escaped."""
    return _xml_escape(xml_legal(value), _XML_TEXT)


@functools.cache
def xml_environment() -> jinja2.Environment:
    """The XML templates' environment (autoescaping, strict, legal and escaped values)."""
    return _environment(
        jinja2.PackageLoader("conformance.report", "templates"),
        autoescape=True,
        finalize=_xml_finalize,
        filters={"text": _xml_text},
    )
