#!/usr/bin/env python3
"""The judge of `rmm mock`'s default answers: a service made concrete from a WSDL on the host.

    mock_service.py [--echo] [--namespace NS] SERVER.cs OUT.cs
                                        prints the full name of the service class

SERVER.cs is what Mono's `wsdl -server` writes for a WSDL: an abstract WebService class, each
web method an abstract method with the WSDL's attributes. OUT.cs is the same class made
concrete, each method answering its result type's default (`default(T)`, the out parameters
theirs too), as a .NET service whose methods `return default(T)` does: what `rmm mock`
answers, so that the host's bytes judge it (tests/outside/run.sh, mock_judge.py).

With --echo, each method answers what `rmm mock --answer echo` answers (cli/src/mock.rs,
echo_impl): the result is the first parameter (not an `out` one) of the result's type, else
default(T); a `ref` parameter is answered as it was read (the request's parameter of its name
and type); an `out` parameter is default(T). A type is the C# type as `wsdl` wrote it, and
`DataType="date"` apart from `DateTime` (rmm's `date` and `dateTime` are two types). With
--namespace NS, OUT.cs declares its classes in NS rather than in SERVER.cs's namespace (the
echo service beside the default one on the same host: tests/interop/asmx/start.sh).
"""

import re
import sys

CLASS = re.compile(r"^(\s*)public abstract partial class (\w+)")
NAMESPACE = re.compile(r"^\s*namespace ([\w.]+)")
METHOD = re.compile(r"^(\s*)public abstract (.+?) (\w+)\((.*)\);\s*$")


def split_params(params):
    """The parameters of a signature, split at the commas outside brackets."""
    out, depth, current = [], 0, ""
    for ch in params:
        if ch in "<[(":
            depth += 1
        elif ch in ">])":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        out.append(current.strip())
    return out


def strip_attributes(param):
    """The parameter without its leading attributes (`[XmlElement("a", typeof(A))] `): each
    up to its matching bracket, strings aside, so that an array type's `[]` stays."""
    param = param.strip()
    while param.startswith("["):
        depth, quoted, escaped, end = 0, False, False, None
        for i, ch in enumerate(param):
            if quoted:
                if escaped:
                    escaped = False
                elif ch == "\\":
                    escaped = True
                elif ch == '"':
                    quoted = False
            elif ch == '"':
                quoted = True
            elif ch == "[":
                depth += 1
            elif ch == "]":
                depth -= 1
                if depth == 0:
                    end = i
                    break
        if end is None:
            break
        param = param[end + 1:].strip()
    return param


def parts(param):
    """(mode, type key, name) of a parameter: mode `out`, `ref` or ""; the type key its C# type,
    and its `DataType="date"` where it has one."""
    bare = strip_attributes(param)
    attributes = param.strip()[: len(param.strip()) - len(bare)]
    mode = ""
    for word in ("out ", "ref ", "params "):
        if bare.startswith(word):
            mode, bare = word.strip(), bare[len(word):]
    ty, name = bare.rsplit(" ", 1)
    return mode, type_key(ty, attributes), name


def type_key(ty, attributes):
    """The type a parameter or result is to the echo rule: its C# type, and `date` where its
    attributes say `DataType="date"` (rmm's `date`, not its `dateTime`)."""
    return (ty.strip(), "date" if 'DataType="date"' in attributes else "")


def echo_body(result, name, params, attributes):
    """The statements of an echo method: as `rmm mock --answer echo` answers. The result is the
    first parameter (not an `out` one) of its type, whatever its element's name (rmm reads a
    result renamed by `[return: XmlElement]` as the result, `result_element:`, as wsdl.exe
    does); each `out` parameter its default."""
    body = []
    read = []
    for param in split_params(params):
        mode, key, pname = parts(param)
        if mode == "out":
            body.append(f"{pname} = default({key[0]});")
        else:
            read.append((key, pname))
    if result != "void":
        returns = [line for line in attributes.split("\n") if line.strip().startswith("[return:")]
        want = type_key(result, "\n".join(returns))
        same = next((p for key, p in read if key == want), None)
        body.append(f"return {same};" if same else f"return default({result});")
    return body


def out_assignment(param):
    """`name = default(Type);` for an out parameter (its attributes aside), else None."""
    param = strip_attributes(param)
    if not param.startswith("out "):
        return None
    ty, name = param[4:].rsplit(" ", 1)
    return f"{name} = default({ty});"


def joined_lines(lines):
    """The lines, an abstract method's signature that `wsdl` wraps over several lines (one
    parameter a line, for a long list) joined into one."""
    out, pending = [], None
    for line in lines:
        if pending is not None:
            pending += " " + line.strip()
            if pending.rstrip().endswith(";"):
                out.append(pending)
                pending = None
            continue
        if re.match(r"^\s*public abstract .*\($", line.rstrip()):
            pending = line.rstrip()
            continue
        out.append(line)
    if pending is not None:
        out.append(pending)
    return out


def main():
    args = sys.argv[1:]
    echo, renamed = False, None
    while args and args[0].startswith("--"):
        flag = args.pop(0)
        if flag == "--echo":
            echo = True
        elif flag == "--namespace":
            renamed = args.pop(0)
        else:
            sys.exit(f"mock_service.py: unknown option {flag}")
    source, target = args[0], args[1]
    namespace, first_class, out = "", None, []
    # The attributes of the method to come, a line each.
    attributes = ""
    for line in joined_lines(open(source, encoding="utf-8").read().split("\n")):
        ns = NAMESPACE.match(line)
        if ns and not namespace:
            namespace = ns.group(1)
            if renamed:
                line = line.replace(f"namespace {namespace}", f"namespace {renamed}", 1)
                namespace = renamed
        if line.strip().startswith("["):
            attributes += line + "\n"
        cls = CLASS.match(line)
        if cls:
            attributes = ""
            first_class = first_class or cls.group(2)
            out.append(line.replace("public abstract partial class", "public partial class"))
            continue
        method = METHOD.match(line)
        if method:
            indent, result, name, params = method.groups()
            if echo:
                body = echo_body(result, name, params, attributes)
            else:
                body = [a for a in map(out_assignment, split_params(params)) if a]
                if result != "void":
                    body.append(f"return default({result});")
            attributes = ""
            out.append(f"{indent}public {result} {name}({params}) {{ {' '.join(body)} }}")
            continue
        out.append(line)
    if not first_class:
        sys.exit(f"{source}: no abstract service class")
    with open(target, "w", encoding="utf-8") as f:
        f.write("\n".join(out))
    print(f"{namespace}.{first_class}" if namespace else first_class)


if __name__ == "__main__":
    main()
