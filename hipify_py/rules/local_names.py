"""Names a file declares itself: never report those as unknown CUDA API."""

from __future__ import annotations

from ..context import Context
from ..parse import captures

_DECLARATIONS = """
(preproc_def name: (identifier) @n)
(preproc_function_def name: (identifier) @n)
(function_declarator declarator: (identifier) @n)
(function_declarator declarator: (field_identifier) @n)
(type_definition declarator: (type_identifier) @n)
(struct_specifier name: (type_identifier) @n)
(class_specifier name: (type_identifier) @n)
(union_specifier name: (type_identifier) @n)
(enum_specifier name: (type_identifier) @n)
(enumerator name: (identifier) @n)
(init_declarator declarator: (identifier) @n)
(declaration declarator: (identifier) @n)
(parameter_declaration declarator: (identifier) @n)
(alias_declaration name: (type_identifier) @n)
(namespace_definition name: (namespace_identifier) @n)
"""


def collect(ctx: Context) -> frozenset[str]:
    found = captures(_DECLARATIONS, ctx.root).get("n", [])
    return frozenset(ctx.node_text(node) for node in found)
