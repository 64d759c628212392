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
// 0123456<p % 10>-89ab-cdef-fedc-ba9876543210, DateTime 2026-01-02T03:04:05 (Unspecified),
// byte[] {0, 1, 254, 255, p}, an enum its value number p (modulo their count), a nullable
// value its underlying value. The HTTP proxies take each as the text a caller writes there:
// XmlConvert's form, but a char as itself, an enum by its .NET member name as the proxy
// names it, a byte[] one number per element.
//
// Every value, sent or returned, is printed in "params" and "result" as XmlConvert writes it
// (a char as its number, an enum by its wire name, a byte[] in base64).
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
    static readonly string[] Cases = { "ascii", "nonascii", "fault" };

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

        // The types of each operation's parameters, from the SOAP proxy.
        Type soap = Proxy("SOAP");
        if (soap == null)
            return 2;
        var types = new Dictionary<string, Type[]>();
        foreach (MethodInfo m in Operations(soap))
            types[m.Name] = m.GetParameters().Select(p => p.ParameterType).ToArray();

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
                if (!types.TryGetValue(method.Name, out soapTypes))
                {
                    Console.Error.WriteLine("{0}: operation {1} is not in the SOAP proxy", protocol, method.Name);
                    return 2;
                }
                foreach (string kase in Cases)
                {
                    stdout.WriteLine(Call(proxy, protocol, method, soapTypes, kase));
                    // Mono's HTTP GET/POST proxies leave the answer of a void operation
                    // unread, holding its connection (two per host: the third such call would
                    // wait forever, and the runtime aborts at exit): close them after each call.
                    ServicePointManager.FindServicePoint(new Uri(endpoint)).CloseConnectionGroup("");
                }
            }
        }
        return 0;
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

    /// The operations of a proxy, in declaration (= WSDL) order.
    static IEnumerable<MethodInfo> Operations(Type proxy)
    {
        return proxy.GetMethods(BindingFlags.Public | BindingFlags.Instance | BindingFlags.DeclaredOnly)
            .Where(m => m.IsDefined(typeof(SoapDocumentMethodAttribute), false)
                     || m.IsDefined(typeof(HttpMethodAttribute), false))
            .OrderBy(m => m.MetadataToken);
    }

    static object Value(string kase, int position, string name, Type type, bool firstString)
    {
        Type underlying = Nullable.GetUnderlyingType(type);
        if (underlying != null)
            return Value(kase, position, name, underlying, firstString);
        int p = position;
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
        throw new NotSupportedException(name + ": unsupported type " + type);
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
            string member = value.ToString();
            FieldInfo field = value.GetType().GetField(member);
            var wire = field == null ? null
                : (XmlEnumAttribute)Attribute.GetCustomAttribute(field, typeof(XmlEnumAttribute));
            return wire != null && wire.Name != null ? wire.Name : member;
        }
        return Convert.ToString(value, CultureInfo.InvariantCulture);
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
        if (parameter != typeof(string))
            return value;
        if (value is char)
            return value.ToString();
        if (value is Enum)
            return value.ToString();
        return Text(value);
    }

    static string Call(HttpWebClientProtocol proxy, string protocol, MethodInfo method, Type[] soapTypes, string kase)
    {
        ParameterInfo[] parameters = method.GetParameters();
        var values = new object[parameters.Length];
        var sent = new List<string>();
        bool seenString = false;
        for (int i = 0; i < parameters.Length; i++)
        {
            Type soapType = soapTypes[i];
            bool first = soapType == typeof(string) && !seenString;
            seenString |= soapType == typeof(string);
            object value = Value(kase, i + 1, parameters[i].Name, soapType, first);
            values[i] = ProxyValue(value, parameters[i].ParameterType);
            sent.Add("[" + Json(parameters[i].Name) + "," + Json(Text(value)) + "]");
        }
        var line = new StringBuilder();
        line.Append("{\"operation\":").Append(Json(method.Name))
            .Append(",\"protocol\":").Append(Json(protocol))
            .Append(",\"case\":").Append(Json(kase))
            .Append(",\"params\":[").Append(string.Join(",", sent)).Append("]");
        try
        {
            object result = method.Invoke(proxy, values);
            line.Append(",\"result\":").Append(result == null ? "null" : Json(Text(result)));
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
