// Calls every operation of an ASMX service through the proxies Mono's `wsdl` tool generated
// for it, one per protocol, and prints one JSON line per call.
//
//     mono CallAll.exe ENDPOINT
//
// The proxies are compiled into the same assembly, each in its own namespace (run.sh makes
// them with `wsdl -protocol:P -n:Rmm.Proxy.P`):
//
//     Rmm.Proxy.SOAP   Rmm.Proxy.SOAP12   Rmm.Proxy.HttpGet   Rmm.Proxy.HttpPost
//
// In each namespace the proxy is the one class deriving from HttpWebClientProtocol, and its
// operations are its methods carrying SoapDocumentMethodAttribute (SOAP) or
// HttpMethodAttribute (HTTP GET/POST), in declaration order, which is the WSDL's order.
// Nothing about the service is hard-coded. The address each proxy took from the WSDL must be
// ENDPOINT (else exit 2): the WSDL was fetched from the server under test.
//
// Each operation is called three times over each protocol ("case" in the output):
//
//     ascii     every parameter gets its ordinary value (below)
//     nonascii  string parameters get "<name>-<p> Café ☕ 𝄞" (a BMP letter, a BMP symbol and
//               a character outside the BMP, which travels as a surrogate pair in UTF-16)
//     fault     the first string parameter is FAULT (the echo service then throws the client
//               SoapException "requested fault"), the others as in `ascii`
//
// Ordinary values, from the parameter's position p (1-based, wire order), name and type (the
// SOAP proxy's signature; the HTTP proxies take every parameter as a string, and get the
// same value written as invariant text):
//
//     int      100 + p                 bool  true if p is odd
//     decimal  p + 0.25 (scale 2)      string "<name>-<p> a&b=c+d 50%"
//
// and for the other simple types (the types service): long 10^15 + p, short 30000 + p,
// sbyte -p, byte 200 + p, ushort 60000 + p, uint 4000000000 + p, ulong
// 18000000000000000000 + p, float p + 0.5, double -(p + 0.25), char 65 + p, Guid
// 0123456<p % 10>-89ab-cdef-fedc-ba9876543210, DateTime 2026-01-02T03:04:05 (Unspecified; its midnight as an xs:date over SOAP),
// byte[] {0, 1, 254, 255, p}, an enum its value number p (modulo their count), a nullable
// value its underlying value. The HTTP proxies take each as the text a caller writes there:
// XmlConvert's form, but a char as itself, an enum by its .NET member name as the proxy
// names it, a byte[] one number per element.
//
// Classes and arrays (the objects service, ObjectsService.cs), from the proxy's own types
// (each SOAP proxy declares its classes; the HTTP proxies take arrays as string[], written
// from the SOAP proxy's item type):
//
//     class     an instance with every public settable property and field (XmlIgnore'd
//               ones left out) filled by these rules from its position q (1-based: the base
//               class's members first, each class's in declaration order) and name; each
//               `<name>Specified` set; an [XmlText] member a string like any other
//     abstract  the first concrete class (declaration order) that its [XmlInclude]
//               attributes name, directly or through those they name: XmlSerializer writes
//               its xsi:type
//     array     two items, from positions p and p + 1; the second null where an item may be
//               (a class, a string, a nullable)
//     choice    (an [XmlElement(Name, Type)] per alternative) a single one: the alternative
//               at its position q counted round them; an array: one item of each, in order;
//               a choice identifier ([XmlChoiceIdentifier]) set to match
//     flags     ([Flags] enum) its last two members together ("Execute delete"; over
//               GET/POST the text "Execute, delete", the proxy's own member names)
//     XmlElement  <r:NAME p="P" xmlns:r="urn:raw"><!-- c -->a&amp;b &lt;c&gt;</r:NAME>
//               (non-ASCII text in the nonascii case), printed as its OuterXml
//     DataSet   a set named NAME holding a table T<p> of columns I (int), S (string), D
//               (decimal) and W (DateTime, UTC): a row of values from p (the string the
//               nonascii one there), a row of nulls, and a third row accepted then changed;
//               printed as its name, tables, columns, rows' states, values and originals
//     DataTable a lone table T<p> of columns I (int) and S (string): a row of I = p and S (as
//               a string's value), and a row of nulls; printed as a DataSet's table
//     typed DataSet (an inline type of one xs:any of the set's namespace, which Mono's wsdl
//               makes an XmlElement: one element, where the set is two, its schema and
//               its diffgram) not sent: the line says so as an "error"; a result is
//               printed as the XmlElement the proxy read (the set's schema)
//     depth     classes and arrays nest to depth 3 (the parameter's own at 0); deeper
//               classes are null: a class that holds itself ends there
//
// SOAP headers ([SoapHeader] on a SOAP proxy's method, naming a member of the proxy): those
// the call sends (In, InOut) are filled as classes are, at the positions after the
// parameters, an InOut one marked mustUnderstand; those the response carries (Out, InOut)
// are printed after the call as the proxy read them ("headers").
//
// RMM_CASES (comma-separated, e.g. "ascii,nonascii") chooses the cases; all three by default.
//
// Every value, sent or returned, is printed in "params" and "result" as XmlConvert writes it
// (a char as its number, an enum by its wire name, flags by their wire names space-separated,
// a byte[] in base64); a class or an array as the XML `new XmlSerializer(declared type)`
// writes for it (one line, no declaration), which is exact: an xsi:type, a nil item, an
// attribute and text content are all there. The ref and out parameters of an operation are
// printed after its result, as the call left them: "out":[["name","value"],...] (Mono's wsdl
// makes the first out parameter of a void operation its return value).
//
// Output, UTF-8, one line per call, and after "params" one of:
//
//     {"operation":"Op","protocol":"SOAP","case":"ascii","params":[["name","value"],...],
//      "result":"..."}                       a returned value (null for a null string)
//      "soap_fault":{"code":"Client","code_ns":"...","subcode":null,"message":"..."}}
//                                            a SoapException (subcode: SOAP 1.2's, if any)
//      "http_status":500,"error":"..."}      a WebException (its message quotes the body)
//      "error":"Type: message"}              anything else
//
// "params" holds the values as the proxy was given them (as text). Exit status 0 when every
// line was written (whatever the outcomes), 2 on a usage or setup error.

using System;
using System.Collections.Generic;
using System.Data;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Net;
using System.Reflection;
using System.Text;
using System.Web.Services.Protocols;
using System.Xml;
using System.Xml.Serialization;

static class CallAll
{
    static readonly string[] Protocols = { "SOAP", "SOAP12", "HttpGet", "HttpPost" };
    /// The cases, in order: RMM_CASES (comma-separated) or all three.
    static readonly string[] Cases =
        (Environment.GetEnvironmentVariable("RMM_CASES") ?? "ascii,nonascii,fault").Split(',');

    /// Classes nest to this depth (a parameter's own class or array is at 0, each class or
    /// array inside one level deeper); deeper classes are null: recursion ends there.
    const int MaxDepth = 3;

    const string NonAscii = "Caf\u00e9 \u2615 \U0001D11E";

    static int Main(string[] args)
    {
        if (args.Length != 1)
        {
            Console.Error.WriteLine("usage: CallAll.exe ENDPOINT");
            return 2;
        }
        string endpoint = args[0];
        var stdout = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false));
        stdout.AutoFlush = true;

        // The typed DataSets' elements, from the service's WSDL.
        using (var client = new WebClient())
            TypedDataSets = TypedDataSetElements(client.DownloadString(endpoint + "?WSDL"));

        // The types of each operation's parameters, from the SOAP proxy.
        Type soap = Proxy("SOAP");
        if (soap == null)
            return 2;
        // Each operation by the proxies' own name for it (wsdl names overloads Add, Add1: the
        // SOAP proxy's second Add carries MessageName "Add1", the HTTP proxies' is Add1), with
        // its SOAP parameter types and its name on the wire (the SOAP request element).
        var types = new Dictionary<string, Type[]>();
        var wire = new Dictionary<string, string>();
        foreach (MethodInfo m in Operations(soap))
        {
            types[ProxyName(m)] = m.GetParameters().Select(p => Unref(p.ParameterType)).ToArray();
            wire[ProxyName(m)] = WireName(m);
        }

        foreach (string protocol in Protocols)
        {
            Type type = Proxy(protocol);
            if (type == null)
                return 2;
            var proxy = (HttpWebClientProtocol)Activator.CreateInstance(type);
            if (proxy.Url != endpoint)
            {
                Console.Error.WriteLine("{0}: the WSDL's address is {1}, want {2}", protocol, proxy.Url, endpoint);
                return 2;
            }
            proxy.Timeout = 60000;
            proxy.Proxy = null; // the server is local: no proxy from the environment
            foreach (MethodInfo method in Operations(type))
            {
                Type[] soapTypes;
                if (!types.TryGetValue(ProxyName(method), out soapTypes))
                {
                    Console.Error.WriteLine("{0}: operation {1} is not in the SOAP proxy", protocol, method.Name);
                    return 2;
                }
                foreach (string kase in Cases)
                {
                    stdout.WriteLine(Call(proxy, protocol, method, wire[ProxyName(method)], soapTypes, kase));
                    // Mono's HTTP GET/POST proxies leave the answer of a void operation
                    // unread, holding its connection (two per host: the third such call would
                    // wait forever, and the runtime aborts at exit): close them after each call.
                    ServicePointManager.FindServicePoint(new Uri(endpoint)).CloseConnectionGroup("");
                }
            }
        }
        return 0;
    }

    /// The elements of typed DataSets ("Wrapper/name": an element of an operation's wrapper
    /// whose inline type is one xs:any of a namespace of the set's own), which Mono's wsdl
    /// declares as XmlElements.
    static HashSet<string> TypedDataSets = new HashSet<string>();

    static HashSet<string> TypedDataSetElements(string wsdl)
    {
        const string xsd = "http://www.w3.org/2001/XMLSchema";
        var document = new XmlDocument();
        document.LoadXml(wsdl);
        var found = new HashSet<string>();
        foreach (XmlElement any in document.GetElementsByTagName("any", xsd))
        {
            string ns = any.GetAttribute("namespace");
            if (ns == "" || ns.StartsWith("##") || ns == xsd
                || ns == "urn:schemas-microsoft-com:xml-diffgram-v1")
                continue;
            var element = any.ParentNode.ParentNode.ParentNode as XmlElement;
            var wrapper = element == null ? null
                : element.ParentNode.ParentNode.ParentNode as XmlElement;
            if (wrapper != null)
                found.Add(wrapper.GetAttribute("name") + "/" + element.GetAttribute("name"));
        }
        return found;
    }

    /// The proxy class generated for `protocol`.
    static Type Proxy(string protocol)
    {
        string ns = "Rmm.Proxy." + protocol;
        Type[] found = typeof(CallAll).Assembly.GetTypes()
            .Where(t => t.Namespace == ns && typeof(HttpWebClientProtocol).IsAssignableFrom(t))
            .ToArray();
        if (found.Length != 1)
        {
            Console.Error.WriteLine("{0}: want one proxy class, found {1}", ns, found.Length);
            return null;
        }
        return found[0];
    }

    /// The proxies' name for an operation: its method's, or the MessageName wsdl gives the
    /// second of two overloads (the name the HTTP proxies give its method).
    static string ProxyName(MethodInfo m)
    {
        var web = (System.Web.Services.WebMethodAttribute)Attribute.GetCustomAttribute(
            m, typeof(System.Web.Services.WebMethodAttribute));
        return web != null && !string.IsNullOrEmpty(web.MessageName) ? web.MessageName : m.Name;
    }

    /// An operation's name on the wire, from the SOAP proxy: the last segment of its SOAP
    /// action (ASMX's default action is the namespace and the operation's name, its
    /// MessageName for an overload), where the method is named otherwise (wsdl names it after
    /// a renamed request element, RequestElementName); else the method's.
    static string WireName(MethodInfo m)
    {
        var soap = (SoapDocumentMethodAttribute)Attribute.GetCustomAttribute(
            m, typeof(SoapDocumentMethodAttribute));
        if (soap != null && !string.IsNullOrEmpty(soap.Action))
            return soap.Action.Substring(soap.Action.LastIndexOf('/') + 1);
        return soap != null && !string.IsNullOrEmpty(soap.RequestElementName) ? soap.RequestElementName : m.Name;
    }

    /// The operations of a proxy, in declaration (= WSDL) order.
    static IEnumerable<MethodInfo> Operations(Type proxy)
    {
        return proxy.GetMethods(BindingFlags.Public | BindingFlags.Instance | BindingFlags.DeclaredOnly)
            .Where(m => m.IsDefined(typeof(SoapDocumentMethodAttribute), false)
                     || m.IsDefined(typeof(HttpMethodAttribute), false))
            .OrderBy(m => m.MetadataToken);
    }

    /// A parameter's type without its `ref` or `out`.
    static Type Unref(Type type)
    {
        return type.IsByRef ? type.GetElementType() : type;
    }

    static object Value(string kase, int position, string name, Type type, bool firstString, int depth = 0)
    {
        Type underlying = Nullable.GetUnderlyingType(type);
        if (underlying != null)
            return Value(kase, position, name, underlying, firstString, depth);
        int p = position;
        if (type == typeof(XmlElement) || type == typeof(XmlNode))
        {
            // Raw XML: an element of a namespace of its own, an attribute, a comment and text.
            var document = new XmlDocument();
            XmlElement raw = document.CreateElement("r", name, "urn:raw");
            raw.SetAttribute("p", p.ToString(CultureInfo.InvariantCulture));
            raw.AppendChild(document.CreateComment(" c "));
            raw.AppendChild(document.CreateTextNode(kase == "nonascii" ? NonAscii : "a&b <c>"));
            return raw;
        }
        if (type == typeof(DataSet))
        {
            var set = new DataSet(name);
            DataTable t = set.Tables.Add("T" + p.ToString(CultureInfo.InvariantCulture));
            t.Columns.Add("I", typeof(int));
            t.Columns.Add("S", typeof(string));
            t.Columns.Add("D", typeof(decimal));
            t.Columns.Add("W", typeof(DateTime));
            DataRow kept = t.Rows.Add(p, "kept", 0.5m, new DateTime(2026, 1, 2, 3, 4, 5, DateTimeKind.Utc));
            kept.AcceptChanges();
            kept["I"] = p + 1;
            t.Rows.Add(100 + p, kase == "nonascii" ? NonAscii : "a&b <c>", p + 0.25m,
                new DateTime(2026, 1, 2, 3, 4, 5, DateTimeKind.Utc));
            t.Rows.Add(t.NewRow());
            return set;
        }
        if (type == typeof(DataTable))
        {
            var table = new DataTable("T" + p.ToString(CultureInfo.InvariantCulture));
            table.Columns.Add("I", typeof(int));
            table.Columns.Add("S", typeof(string));
            table.Rows.Add(p, kase == "nonascii" ? NonAscii : "a&b <c>");
            table.Rows.Add(table.NewRow());
            return table;
        }
        if (type == typeof(long))
            return 1000000000000000L + p;
        if (type == typeof(short))
            return (short)(30000 + p);
        if (type == typeof(sbyte))
            return (sbyte)(-p);
        if (type == typeof(byte))
            return (byte)(200 + p);
        if (type == typeof(ushort))
            return (ushort)(60000 + p);
        if (type == typeof(uint))
            return 4000000000u + (uint)p;
        if (type == typeof(ulong))
            return 18000000000000000000UL + (ulong)p;
        if (type == typeof(float))
            return p + 0.5f;
        if (type == typeof(double))
            return -(p + 0.25);
        if (type == typeof(char))
            return (char)(65 + p);
        if (type == typeof(Guid))
            return new Guid("0123456" + (p % 10) + "-89ab-cdef-fedc-ba9876543210");
        if (type == typeof(DateTime))
            return new DateTime(2026, 1, 2, 3, 4, 5, DateTimeKind.Unspecified);
        if (type == typeof(byte[]))
            return new byte[] { 0, 1, 254, 255, (byte)p };
        if (type.IsEnum)
        {
            Array values = Enum.GetValues(type);
            if (type.IsDefined(typeof(FlagsAttribute), false) && values.Length >= 2)
            {
                // Flags: the last two members together.
                ulong last = Convert.ToUInt64(values.GetValue(values.Length - 1), CultureInfo.InvariantCulture);
                ulong before = Convert.ToUInt64(values.GetValue(values.Length - 2), CultureInfo.InvariantCulture);
                return Enum.ToObject(type, last | before);
            }
            return values.GetValue(p % values.Length);
        }
        if (type == typeof(int))
            return 100 + position;
        if (type == typeof(bool))
            return position % 2 == 1;
        if (type == typeof(decimal))
            return position + 0.25m;
        if (type == typeof(string))
        {
            if (kase == "fault" && firstString)
                return "FAULT";
            if (kase == "nonascii")
                return name + "-" + position + " " + NonAscii;
            return name + "-" + position + " a&b=c+d 50%";
        }
        if (type.IsArray)
        {
            // Two items, the second null where an item may be (a class, a string, a nullable).
            Type item = type.GetElementType();
            Array array = Array.CreateInstance(item, 2);
            array.SetValue(Value(kase, p, name, item, false, depth + 1), 0);
            bool nillable = !item.IsValueType || Nullable.GetUnderlyingType(item) != null;
            if (!nillable)
                array.SetValue(Value(kase, p + 1, name, item, false, depth + 1), 1);
            return array;
        }
        if (type.IsClass && type.GetConstructor(Type.EmptyTypes) != null || type.IsAbstract)
        {
            if (depth > MaxDepth)
                return null;
            Type concrete = Concrete(type);
            object instance = Activator.CreateInstance(concrete);
            int q = 0;
            foreach (MemberInfo member in Members(concrete))
            {
                q++;
                var property = member as PropertyInfo;
                Type memberType = property != null ? property.PropertyType : ((FieldInfo)member).FieldType;
                // A choice (xs:choice): an [XmlElement(Name, Type)] per alternative.
                XmlElementAttribute[] alternatives = member
                    .GetCustomAttributes(typeof(XmlElementAttribute), false)
                    .Cast<XmlElementAttribute>().Where(e => e.Type != null).ToArray();
                object value = alternatives.Length > 1
                    ? Choice(kase, q, instance, member, memberType, alternatives, depth)
                    : Value(kase, q, member.Name, memberType, false, depth + 1);
                if (property != null)
                    property.SetValue(instance, value, null);
                else
                    ((FieldInfo)member).SetValue(instance, value);
            }
            // Each optional value member given is given: its `<name>Specified` is true.
            foreach (PropertyInfo specified in concrete.GetProperties(BindingFlags.Public | BindingFlags.Instance)
                     .Where(s => s.Name.EndsWith("Specified") && s.PropertyType == typeof(bool) && s.CanWrite))
                specified.SetValue(instance, true, null);
            return instance;
        }
        throw new NotSupportedException(name + ": unsupported type " + type);
    }

    /// The value of a choice member (`alternatives`, one `[XmlElement]` each): a single one,
    /// the alternative at its position counted round them; an array, one item of each, in
    /// order. Where a choice identifier names the element (`[XmlChoiceIdentifier]`), it is set
    /// to match.
    static object Choice(string kase, int position, object instance, MemberInfo member, Type type,
        XmlElementAttribute[] alternatives, int depth)
    {
        var identifier = (XmlChoiceIdentifierAttribute)member
            .GetCustomAttributes(typeof(XmlChoiceIdentifierAttribute), false).FirstOrDefault();
        MemberInfo which = identifier == null ? null
            : (MemberInfo)instance.GetType().GetField(identifier.MemberName)
              ?? instance.GetType().GetProperty(identifier.MemberName);
        Func<Type, string, object> name = (enumType, element) => Enum.Parse(enumType,
            enumType.GetFields(BindingFlags.Public | BindingFlags.Static).First(f =>
                f.GetCustomAttributes(typeof(XmlEnumAttribute), false).Cast<XmlEnumAttribute>()
                    .Select(e => e.Name).DefaultIfEmpty(f.Name).First() == element).Name);
        Action<object> identify = value =>
        {
            if (which is FieldInfo)
                ((FieldInfo)which).SetValue(instance, value);
            else if (which is PropertyInfo)
                ((PropertyInfo)which).SetValue(instance, value, null);
        };
        Type whichType = which == null ? null
            : which is FieldInfo ? ((FieldInfo)which).FieldType : ((PropertyInfo)which).PropertyType;
        if (type.IsArray)
        {
            Array items = Array.CreateInstance(type.GetElementType(), alternatives.Length);
            Array names = whichType == null ? null
                : Array.CreateInstance(whichType.GetElementType(), alternatives.Length);
            for (int i = 0; i < alternatives.Length; i++)
            {
                items.SetValue(Value(kase, position + i, alternatives[i].ElementName,
                    alternatives[i].Type, false, depth + 1), i);
                if (names != null)
                    names.SetValue(name(whichType.GetElementType(), alternatives[i].ElementName), i);
            }
            if (names != null)
                identify(names);
            return items;
        }
        XmlElementAttribute chosen = alternatives[position % alternatives.Length];
        if (whichType != null)
            identify(name(whichType, chosen.ElementName));
        return Value(kase, position, chosen.ElementName, chosen.Type, false, depth + 1);
    }

    /// The type itself, or for an abstract class the first concrete class (in declaration
    /// order) that its [XmlInclude] attributes name, directly or through those they name.
    static Type Concrete(Type type)
    {
        if (!type.IsAbstract)
            return type;
        var seen = new List<Type>();
        var todo = new Queue<Type>();
        todo.Enqueue(type);
        while (todo.Count > 0)
        {
            foreach (XmlIncludeAttribute include in todo.Dequeue().GetCustomAttributes(typeof(XmlIncludeAttribute), false))
            {
                if (include.Type != null && !seen.Contains(include.Type))
                {
                    seen.Add(include.Type);
                    todo.Enqueue(include.Type);
                }
            }
        }
        Type found = seen.Where(t => !t.IsAbstract && type.IsAssignableFrom(t))
            .OrderBy(t => t.MetadataToken).FirstOrDefault();
        if (found == null)
            throw new NotSupportedException("no [XmlInclude] names a concrete class derived from " + type);
        return found;
    }

    /// The public settable members of a class that XmlSerializer writes, the base class's
    /// first, each class's in declaration order.
    static IEnumerable<MemberInfo> Members(Type type)
    {
        var chain = new List<Type>();
        // A SOAP header's own members (SoapHeader's mustUnderstand, actor, ...) are the
        // block's attributes, set apart.
        for (Type t = type; t != null && t != typeof(object) && t != typeof(SoapHeader); t = t.BaseType)
            chain.Insert(0, t);
        const BindingFlags declared = BindingFlags.Public | BindingFlags.Instance | BindingFlags.DeclaredOnly;
        foreach (Type t in chain)
        {
            IEnumerable<MemberInfo> members = t.GetProperties(declared)
                .Where(p => p.CanWrite && p.GetIndexParameters().Length == 0)
                .Cast<MemberInfo>()
                .Concat(t.GetFields(declared).Where(f => !f.IsInitOnly).Cast<MemberInfo>());
            foreach (MemberInfo member in members.OrderBy(m => m.MetadataToken))
            {
                // An [XmlAnyAttribute] member (a SOAP header's xs:anyAttribute) is left null.
                if (!member.IsDefined(typeof(XmlIgnoreAttribute), false)
                    && !member.IsDefined(typeof(XmlAnyAttributeAttribute), false))
                    yield return member;
            }
        }
    }

    /// A value of `declared` type as printed: a simple one as XmlConvert writes it (`Text`),
    /// any other (a class, an array) as the XML XmlSerializer writes for it (`Xml`).
    static string Text(object value, Type declared)
    {
        if (value is XmlNode)
            return ((XmlNode)value).OuterXml;
        if (value is DataSet)
            return Describe((DataSet)value);
        if (value is DataTable)
        {
            var sb = new StringBuilder("table");
            DescribeTable(sb, (DataTable)value);
            return sb.ToString();
        }
        if (value == null || IsSimple(value.GetType()))
            return Text(value);
        return Xml(value, Unref(declared));
    }

    /// A DataSet as read: its name, each table's columns, each row's state, values and
    /// original values (XmlConvert's text; a DateTime in UTC, whatever zone read it).
    static string Describe(DataSet set)
    {
        var sb = new StringBuilder(set.DataSetName);
        foreach (DataTable t in set.Tables)
            DescribeTable(sb, t);
        return sb.ToString();
    }

    /// A table as read: its name, columns, each row's state, values and original values.
    static void DescribeTable(StringBuilder sb, DataTable t)
    {
        sb.Append(" | ").Append(t.TableName).Append(" [");
        foreach (DataColumn c in t.Columns)
            sb.Append(c.ColumnName).Append(':').Append(c.DataType.Name).Append(' ');
        sb.Append(']');
        foreach (DataRow r in t.Rows)
        {
            sb.Append(" {").Append(r.RowState);
            DataRowVersion[] versions = r.RowState == DataRowState.Deleted
                ? new[] { DataRowVersion.Original }
                : r.RowState == DataRowState.Modified
                    ? new[] { DataRowVersion.Current, DataRowVersion.Original }
                    : new[] { DataRowVersion.Current };
            foreach (DataRowVersion version in versions)
                foreach (DataColumn c in t.Columns)
                {
                    object v = r[c, version];
                    sb.Append(' ').Append(v is DBNull ? "null"
                        : v is DateTime ? XmlConvert.ToString(((DateTime)v).ToUniversalTime(), XmlDateTimeSerializationMode.Utc)
                        : Text(v));
                }
            sb.Append('}');
        }
    }

    static bool IsSimple(Type type)
    {
        return type.IsPrimitive || type.IsEnum || type == typeof(string) || type == typeof(decimal)
            || type == typeof(DateTime) || type == typeof(Guid) || type == typeof(byte[]);
    }

    static readonly Dictionary<string, XmlSerializer> Serializers = new Dictionary<string, XmlSerializer>();

    /// The namespace of the proxy being called (Rmm.Proxy.SOAP): the types an object may hold.
    static string ProxyNamespace = "";

    /// A value as XmlSerializer writes it for its declared type (an xsi:type names a derived
    /// class), on one line, with no XML declaration. An object (or an array of them) may hold
    /// any of the proxy's own types, which its serializer is told of.
    static string Xml(object value, Type declared)
    {
        bool objects = declared == typeof(object) || declared == typeof(object[]);
        string key = declared.FullName + (objects ? "@" + ProxyNamespace : "");
        XmlSerializer serializer;
        if (!Serializers.TryGetValue(key, out serializer))
        {
            Type[] extra = !objects ? new Type[0] : typeof(CallAll).Assembly.GetTypes()
                .Where(t => t.Namespace == ProxyNamespace && t.IsDefined(typeof(XmlTypeAttribute), false)
                    && (t.IsEnum || !t.IsAbstract) && !typeof(SoapHeader).IsAssignableFrom(t)
                    // The HTTP proxies' classes of an array result document (ArrayOfInt1).
                    && !t.Name.StartsWith("ArrayOf"))
                .OrderBy(t => t.MetadataToken).ToArray();
            Serializers[key] = serializer = new XmlSerializer(declared, extra);
        }
        var text = new StringWriter(CultureInfo.InvariantCulture);
        var settings = new XmlWriterSettings { OmitXmlDeclaration = true, Indent = false, NewLineHandling = NewLineHandling.Entitize };
        using (XmlWriter writer = XmlWriter.Create(text, settings))
            serializer.Serialize(writer, value);
        return text.ToString();
    }

    /// A value as XmlConvert writes it (a char as its number, an enum by its wire name).
    static string Text(object value)
    {
        if (value is bool)
            return (bool)value ? "true" : "false";
        if (value is byte[])
            return Convert.ToBase64String((byte[])value);
        if (value is DateTime)
            return XmlConvert.ToString((DateTime)value, XmlDateTimeSerializationMode.RoundtripKind);
        if (value is float)
            return XmlConvert.ToString((float)value);
        if (value is double)
            return XmlConvert.ToString((double)value);
        if (value is char)
            return ((int)(char)value).ToString(CultureInfo.InvariantCulture);
        if (value is Enum)
        {
            // Flags: the wire name of each member set, space-separated (an xs:list).
            return string.Join(" ", value.ToString().Split(new[] { ", " }, StringSplitOptions.None)
                .Select(member => WireName(value.GetType(), member)));
        }
        return Convert.ToString(value, CultureInfo.InvariantCulture);
    }

    /// The wire name of an enum's member: its [XmlEnum] name, else its own.
    static string WireName(Type type, string member)
    {
        FieldInfo field = type.GetField(member);
        var wire = field == null ? null
            : (XmlEnumAttribute)Attribute.GetCustomAttribute(field, typeof(XmlEnumAttribute));
        return wire != null && wire.Name != null ? wire.Name : member;
    }

    /// A value as `parameter` of a proxy takes it: over HTTP a string (a byte[] as one string
    /// per element); an enum as the proxy's own enum type (each proxy declares one).
    static object ProxyValue(object value, Type parameter)
    {
        Type target = Nullable.GetUnderlyingType(parameter) ?? parameter;
        if (target.IsEnum && value is Enum)
            return Enum.Parse(target, value.ToString());
        if (parameter == typeof(string[]) && value is byte[])
            return ((byte[])value).Select(b => b.ToString(CultureInfo.InvariantCulture)).ToArray();
        if (parameter == typeof(string[]) && value is Array)
            return ((Array)value).Cast<object>()
                .Select(item => item == null ? null : (string)ProxyValue(item, typeof(string))).ToArray();
        if (parameter != typeof(string))
            return value;
        if (value is char)
            return value.ToString();
        if (value is Enum)
            return value.ToString();
        return Text(value);
    }

    static string Call(HttpWebClientProtocol proxy, string protocol, MethodInfo method, string operation, Type[] soapTypes, string kase)
    {
        ProxyNamespace = proxy.GetType().Namespace;
        ParameterInfo[] parameters = method.GetParameters();
        var values = new object[parameters.Length];
        var sent = new List<string>();
        bool seenString = false;
        bool soap = protocol.StartsWith("SOAP");
        for (int i = 0; i < parameters.Length; i++)
        {
            if (parameters[i].IsOut)
                continue; // an out parameter: nothing is sent
            // Over SOAP the value is of the proxy's own type (each proxy declares its
            // classes); over GET/POST of the SOAP proxy's, written as text below.
            Type soapType = soap ? Unref(parameters[i].ParameterType) : soapTypes[i];
            bool first = soapType == typeof(string) && !seenString;
            seenString |= soapType == typeof(string);
            object value = Value(kase, i + 1, parameters[i].Name, soapType, first);
            // A DateTime the proxy sends as an xs:date ([XmlElement(DataType = "date")]) goes
            // as its date alone: what comes back is that midnight.
            if (value is DateTime && parameters[i].GetCustomAttributes(typeof(XmlElementAttribute), false)
                    .Cast<XmlElementAttribute>().Any(a => a.DataType == "date"))
                value = ((DateTime)value).Date;
            values[i] = ProxyValue(value, Unref(parameters[i].ParameterType));
            sent.Add("[" + Json(parameters[i].Name) + "," + Json(Text(value, soapType)) + "]");
        }
        // Its SOAP headers (the proxy's members its [SoapHeader] attributes name): those it
        // sends filled as parameters are, at the positions after them, an InOut one marked
        // mustUnderstand; all of them null before the call, so that what comes back is this
        // call's.
        var headers = method.GetCustomAttributes(typeof(SoapHeaderAttribute), false)
            .Cast<SoapHeaderAttribute>().ToList();
        int position = parameters.Length;
        foreach (SoapHeaderAttribute h in headers)
        {
            Type headerType = MemberType(proxy, h.MemberName);
            SetMember(proxy, h.MemberName, null);
            if ((h.Direction & SoapHeaderDirection.In) == 0)
                continue;
            position++;
            var header = (SoapHeader)Value(kase, position, h.MemberName, headerType, false);
            header.MustUnderstand = h.Direction == SoapHeaderDirection.InOut;
            SetMember(proxy, h.MemberName, header);
            sent.Add("[" + Json(h.MemberName) + "," + Json(Text(header, headerType)) + "]");
        }
        var line = new StringBuilder();
        line.Append("{\"operation\":").Append(Json(operation))
            .Append(",\"protocol\":").Append(Json(protocol))
            .Append(",\"case\":").Append(Json(kase))
            .Append(",\"params\":[").Append(string.Join(",", sent)).Append("]");
        string typed = parameters.Select(p => p.Name)
            .FirstOrDefault(name => TypedDataSets.Contains(operation + "/" + name));
        if (typed != null)
        {
            line.Append(",\"error\":").Append(Json("not called: " + typed + " is a typed DataSet, "
                + "which the proxy declares an XmlElement (one element, where the set is its "
                + "schema and its diffgram)"));
            return line.Append("}").ToString();
        }
        try
        {
            object result = method.Invoke(proxy, values);
            line.Append(",\"result\":").Append(result == null ? "null" : Json(Text(result, method.ReturnType)));
            // The ref and out parameters, as the call left them.
            var outs = parameters.Where(p => p.ParameterType.IsByRef)
                .Select(p => "[" + Json(p.Name) + "," + (values[p.Position] == null ? "null"
                    : Json(Text(values[p.Position], p.ParameterType))) + "]")
                .ToList();
            if (outs.Count > 0)
                line.Append(",\"out\":[").Append(string.Join(",", outs)).Append("]");
            // The headers the response carried (Out and InOut), as the proxy read them.
            var back = headers.Where(h => (h.Direction & SoapHeaderDirection.Out) != 0)
                .Select(h =>
                {
                    object value = GetMember(proxy, h.MemberName);
                    return "[" + Json(h.MemberName) + "," + (value == null ? "null"
                        : Json(Text(value, MemberType(proxy, h.MemberName)))) + "]";
                })
                .ToList();
            if (back.Count > 0)
                line.Append(",\"headers\":[").Append(string.Join(",", back)).Append("]");
        }
        catch (TargetInvocationException wrapped)
        {
            Exception e = wrapped.InnerException;
            var fault = e as SoapException;
            var web = e as WebException;
            if (fault != null)
            {
                line.Append(",\"soap_fault\":{\"code\":").Append(Json(fault.Code.Name))
                    .Append(",\"code_ns\":").Append(Json(fault.Code.Namespace))
                    .Append(",\"subcode\":")
                    .Append(fault.SubCode == null || fault.SubCode.Code == null ? "null" : Json(fault.SubCode.Code.Name))
                    .Append(",\"message\":").Append(Json(fault.Message)).Append("}");
            }
            else if (web != null && web.Response is HttpWebResponse)
            {
                // The message carries the error body (the proxy has read it).
                line.Append(",\"http_status\":").Append((int)((HttpWebResponse)web.Response).StatusCode)
                    .Append(",\"error\":").Append(Json(web.Message));
            }
            else
            {
                line.Append(",\"error\":").Append(Json(e.GetType().Name + ": " + e.Message));
            }
        }
        return line.Append("}").ToString();
    }

    /// The type of the proxy's member `name` (a field or a property, as `wsdl` made it).
    static Type MemberType(object proxy, string name)
    {
        FieldInfo field = proxy.GetType().GetField(name);
        return field != null ? field.FieldType : proxy.GetType().GetProperty(name).PropertyType;
    }

    static object GetMember(object proxy, string name)
    {
        FieldInfo field = proxy.GetType().GetField(name);
        return field != null ? field.GetValue(proxy) : proxy.GetType().GetProperty(name).GetValue(proxy, null);
    }

    static void SetMember(object proxy, string name, object value)
    {
        FieldInfo field = proxy.GetType().GetField(name);
        if (field != null)
            field.SetValue(proxy, value);
        else
            proxy.GetType().GetProperty(name).SetValue(proxy, value, null);
    }

    /// A JSON string: UTF-16 text as is, but for quotes, backslashes, control characters and
    /// unpaired surrogates, which are escaped.
    static string Json(string s)
    {
        var b = new StringBuilder("\"");
        for (int i = 0; i < s.Length; i++)
        {
            char c = s[i];
            if (c == '"' || c == '\\')
                b.Append('\\').Append(c);
            else if (c < 0x20)
                b.AppendFormat("\\u{0:x4}", (int)c);
            else if (char.IsHighSurrogate(c) && i + 1 < s.Length && char.IsLowSurrogate(s[i + 1]))
                b.Append(c).Append(s[++i]);
            else if (char.IsSurrogate(c))
                b.AppendFormat("\\u{0:x4}", (int)c);
            else
                b.Append(c);
        }
        return b.Append('"').ToString();
    }
}
