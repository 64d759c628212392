// The fifth reference service: ASMX's JSON face. A [ScriptService] answers ASP.NET AJAX's
// calls (POST with application/json, and GET for [ScriptMethod(UseHttpGet = true)]) in JSON
// beside SOAP; rmm's generated server must answer them as this host does. Each echo returns
// its arguments unchanged, so what the host writes is what it read.
using System;
using System.Web.Script.Services;
using System.Web.Services;
using System.Xml.Serialization;

namespace Rmm.Script
{
    /// An enum: JavaScriptSerializer writes its number.
    public enum Mood
    {
        Calm,
        Busy,
        Angry,
    }

    /// A class of simple members, in declaration order.
    public class Point
    {
        public int X;
        public int Y;
        public string Name;
        public DateTime When;
    }

    /// A base class and a derived one: .NET writes the `__type` hint.
    [XmlInclude(typeof(Circle))]
    public class Shape
    {
        public string Label;
    }

    public class Circle : Shape
    {
        public double Radius;
    }

    [WebService(Namespace = "http://rmm.example.com/script/")]
    [WebServiceBinding(ConformsTo = WsiProfiles.None)]
    [ScriptService]
    public class ScriptService : WebService
    {
        [WebMethod]
        public int Add(int a, int b) { return a + b; }

        [WebMethod]
        public string Echo(string value) { return value; }

        [WebMethod]
        public bool EchoBoolean(bool value) { return value; }

        [WebMethod]
        public long EchoLong(long value) { return value; }

        [WebMethod]
        public double EchoDouble(double value) { return value; }

        [WebMethod]
        public decimal EchoDecimal(decimal value) { return value; }

        [WebMethod]
        public DateTime EchoDateTime(DateTime value) { return value; }

        [WebMethod]
        public Guid EchoGuid(Guid value) { return value; }

        [WebMethod]
        public Mood EchoMood(Mood value) { return value; }

        [WebMethod]
        public byte[] EchoBytes(byte[] value) { return value; }

        [WebMethod]
        public int[] EchoInts(int[] value) { return value; }

        [WebMethod]
        public string[] EchoStrings(string[] value) { return value; }

        [WebMethod]
        public Point EchoPoint(Point value) { return value; }

        [WebMethod]
        public Point[] EchoPoints(Point[] value) { return value; }

        [WebMethod]
        public Shape EchoShape(Shape value) { return value; }

        [WebMethod]
        public Point Move(Point p, int dx, int dy)
        {
            p.X += dx;
            p.Y += dy;
            return p;
        }

        [WebMethod]
        [ScriptMethod(UseHttpGet = true)]
        public string Greet(string name, int times)
        {
            string s = "";
            for (int i = 0; i < times; i++) s += "Hello, " + name + "! ";
            return s;
        }

        [WebMethod]
        [ScriptMethod(ResponseFormat = ResponseFormat.Xml)]
        public Point PointAsXml(int x, int y) { Point p = new Point(); p.X = x; p.Y = y; p.Name = "xml"; return p; }

        [WebMethod]
        [ScriptMethod(ResponseFormat = ResponseFormat.Xml)]
        public int CountAsXml(int n) { return n; }

        [WebMethod]
        [ScriptMethod(ResponseFormat = ResponseFormat.Xml)]
        public string TextAsXml(string text) { return text; }

        [WebMethod]
        [ScriptMethod(ResponseFormat = ResponseFormat.Xml)]
        public Point[] PointsAsXml(int n)
        {
            Point[] points = new Point[n];
            for (int i = 0; i < n; i++) { points[i] = new Point(); points[i].X = i; points[i].Name = "p<" + i + ">"; }
            return points;
        }

        [WebMethod]
        public void Nothing() { }

        [WebMethod]
        public string Fail(string message) { throw new InvalidOperationException(message); }

        // Session state ([WebMethod(EnableSession = true)]): a basket the caller fills across
        // calls, over every binding. The host issues ASP.NET_SessionId when a call first stores
        // something; a call that only reads a new session stores nothing and sets no cookie.

        /// Adds `item` (unless null) to the session's basket and counts the visit: the count.
        [WebMethod(EnableSession = true)]
        public int Visit(string item)
        {
            int visits = Session["Visits"] == null ? 0 : (int)Session["Visits"];
            Session["Visits"] = visits + 1;
            if (item != null)
            {
                string[] items = (string[])Session["Items"] ?? new string[0];
                string[] more = new string[items.Length + 1];
                items.CopyTo(more, 0);
                more[items.Length] = item;
                Session["Items"] = more;
            }
            return visits + 1;
        }

        /// The basket's items, in the order added (none for a new session): reads, stores nothing.
        [WebMethod(EnableSession = true)]
        public string[] Contents()
        {
            return (string[])Session["Items"] ?? new string[0];
        }

        /// Ends the session (Session.Abandon): the next call with its cookie finds it empty.
        [WebMethod(EnableSession = true)]
        public void Forget() { Session.Abandon(); }
    }
}
