// A probe-only reference service for SOAP RPC/encoded (section 5 of SOAP 1.1): every method of
// EncodedService is [SoapRpcService], so RPC style with encoded use, on SOAP 1.1 and 1.2; a
// second class, EncodedDocService, has one document/encoded method beside an ordinary
// document/literal one. Echo semantics, deterministic; a string argument "FAULT" throws the
// client SoapException "requested fault". What the host writes and reads for it is
// tests/fixtures/encoded/NOTES.md.
using System;
using System.Web.Services;
using System.Web.Services.Description;
using System.Web.Services.Protocols;
using System.Xml.Serialization;

namespace Rmm.Encoded
{
    public enum Level
    {
        Low,
        [SoapEnum("hi")] High,
    }

    /// Every simple type of EchoSimple's parameters, as public fields.
    public class Simple
    {
        public bool Flag;
        public decimal Money;
        public double Ratio;
        public float Single;
        public long Big;
        public DateTime When;
        public byte[] Data;
        public Level Level;
        public char Letter;
        public Guid Id;
    }

    public class Point
    {
        public int X;
        public int Y;
        public string Name;
    }

    public class Line
    {
        public Point From;
        public Point To;
    }

    public class Poly
    {
        public string Name;
        public Point[] Points;
    }

    public class Shape
    {
        public string Name;
    }

    public class Circle : Shape
    {
        public double Radius;
    }

    [WebService(Namespace = "http://rmm.example.com/encoded")]
    [WebServiceBinding(ConformsTo = WsiProfiles.None)]
    [SoapRpcService]
    [SoapInclude(typeof(Circle))]
    public class EncodedService : WebService
    {
        static void Check(string s)
        {
            if (s == "FAULT")
                throw new SoapException("requested fault", SoapException.ClientFaultCode);
        }

        [WebMethod]
        public int Add(int a, int b) { return a + b; }

        [WebMethod]
        public string EchoString(string s) { Check(s); return s; }

        [WebMethod]
        public void Ping() { }

        [WebMethod]
        public Simple EchoSimple(bool flag, decimal money, double ratio, float single, long big,
            DateTime when, byte[] data, Level level, char letter, Guid id)
        {
            Simple r = new Simple();
            r.Flag = flag; r.Money = money; r.Ratio = ratio; r.Single = single; r.Big = big;
            r.When = when; r.Data = data; r.Level = level; r.Letter = letter; r.Id = id;
            return r;
        }

        [WebMethod]
        public Point EchoPoint(Point p) { if (p != null) Check(p.Name); return p; }

        [WebMethod]
        public Line EchoLine(Line l) { return l; }

        /// A line whose two ends are the same object.
        [WebMethod]
        public Line SameEnds(Point p)
        {
            Line l = new Line();
            l.From = p;
            l.To = p;
            return l;
        }

        [WebMethod]
        public int[] EchoInts(int[] xs) { return xs; }

        [WebMethod]
        public string[] EchoStrings(string[] xs) { return xs; }

        [WebMethod]
        public Point[] EchoPoints(Point[] ps) { return ps; }

        [WebMethod]
        public Poly EchoPoly(Poly p) { return p; }

        /// Lines in an array: shows the order of the multi-ref elements (breadth or depth first).
        [WebMethod]
        public Line[] EchoLines(Line[] ls) { return ls; }

        [WebMethod]
        public Shape EchoShape(Shape s) { return s; }

        /// first: s up to its first space (all of s without one); count: count + 1; returns
        /// the length of s.
        [WebMethod]
        public int Split(string s, out string first, ref int count)
        {
            Check(s);
            int sp = s == null ? -1 : s.IndexOf(' ');
            first = sp < 0 ? s : s.Substring(0, sp);
            count = count + 1;
            return s == null ? -1 : s.Length;
        }

        /// Names from attributes: the request and response namespaces and a renamed parameter.
        [WebMethod]
        [SoapRpcMethod(RequestNamespace = "urn:rmm:req", ResponseNamespace = "urn:rmm:resp")]
        [return: SoapElement("answer")]
        public string Renamed([SoapElement("renamed")] string value) { Check(value); return value; }
    }

    [WebService(Namespace = "http://rmm.example.com/encoded")]
    [WebServiceBinding(ConformsTo = WsiProfiles.None)]
    public class EncodedDocService : WebService
    {
        [WebMethod]
        [SoapDocumentMethod(Use = SoapBindingUse.Encoded)]
        public Point EchoPoint(Point p) { return p; }

        [WebMethod]
        public Point EchoPointLiteral(Point p) { return p; }
    }
}
