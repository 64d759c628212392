// The third reference service: XmlSerializer's object model (classes, arrays, nesting,
// recursion), for rmm's import and interop tests (tests/interop/asmx/README.md). Each echo
// returns its argument unchanged, so what the host writes is what it read.
using System;
using System.Collections.Generic;
using System.ComponentModel;
using System.Data;
using System.Text;
using System.Web.Services;
using System.Globalization;
using System.Web.Services.Protocols;
using System.Xml;
using System.Xml.Schema;
using System.Xml.Serialization;

namespace Rmm.Objects
{
    public enum Level { Low, Normal, High }

    /// Access rights: a flags enum, one value with a wire name of its own.
    [Flags]
    public enum Perms
    {
        None = 0,
        Read = 1,
        Write = 2,
        Execute = 4,
        [XmlEnum("delete")] Delete = 8,
    }

    /// Every kind of member: value types, references, nullables, arrays of each kind.
    public class Order
    {
        public int Id;
        public DateTime Placed;
        public Level Priority;
        public Customer Customer;
        public OrderLine[] Lines;
        public string[] Tags;
        public int?[] Scores;
        public Level[] Levels;
        public double? Rating;
        public int[][] Matrix;
        public byte[] Blob;
    }

    public class Customer
    {
        public string Name;
        public Address Address;
        public string[] Phones;
    }

    public class Address
    {
        public string Street;
        public string City;
        public int Zip;
    }

    public class OrderLine
    {
        public string Sku;
        public int Quantity;
        public decimal Price;
        public decimal? Discount;
    }

    /// A class that holds itself, directly and through an array.
    public class TreeNode
    {
        public string Name;
        public TreeNode[] Children;
        public TreeNode Parent;
    }

    /// An abstract base: values are of its derived classes, which [XmlInclude] names (Circle
    /// names its own derived class: inclusion is transitive).
    [XmlInclude(typeof(Circle)), XmlInclude(typeof(Square))]
    public abstract class Shape
    {
        public string Name;
        [XmlAttribute] public string Tag;
    }

    [XmlInclude(typeof(ColoredCircle))]
    public class Circle : Shape
    {
        public double Radius;
    }

    public class Square : Shape
    {
        public double Side;
    }

    public class ColoredCircle : Circle
    {
        public string Color;
    }

    /// Members of a base type: abstract, concrete with a derived class, and an array of them.
    public class Drawing
    {
        public string Title;
        public Shape Main;
        public Circle Ring;
        public Shape[] Shapes;
    }

    /// Members written as attributes: a string, a renamed int, flags; and an element.
    public class Attributed
    {
        [XmlAttribute] public string Code;
        [XmlAttribute("n")] public int Number;
        [XmlAttribute] public Perms Access;
        public string Body;
    }

    /// Text content with an attribute.
    public class Note
    {
        [XmlAttribute] public string Lang;
        [XmlText] public string Text;
    }

    /// Arrays named otherwise: renamed items, an array without a wrapper.
    public class Bundle
    {
        [XmlArray("Lines"), XmlArrayItem("Line")] public OrderLine[] Items;
        [XmlElement("Tag")] public string[] Tags;
        [XmlArrayItem("n")] public int?[] Scores;
        public Perms[] Rights;
    }

    /// Renames: the schema type is `Label`, a member's element is `tag-value`, and an ignored
    /// member is nowhere on the wire.
    [XmlType("Label")]
    public class Tag
    {
        public string Key;
        [XmlElement("tag-value")] public string Value;
        [XmlIgnore] public string Note;
    }

    /// Members that may be absent though of value types: defaults ([DefaultValue], left out
    /// when equal) and an optional value (xxxSpecified).
    public class Settings
    {
        public string Name;
        [DefaultValue(3)] public int Retries = 3;
        [DefaultValue(true)] public bool Enabled = true;
        [DefaultValue("en")] public string Lang = "en";
        [DefaultValue(Level.Normal)] public Level Priority = Level.Normal;
        [DefaultValue(1.5)] public double Ratio = 1.5;
        public int Limit;
        [XmlIgnore] public bool LimitSpecified;
        public Level Mode;
        [XmlIgnore] public bool ModeSpecified;
        [DefaultValue(typeof(decimal), "2.50")] public decimal Fee = 2.50m;
        [DefaultValue(typeof(DateTime), "2001-02-03T04:05:06")] public DateTime Since = new DateTime(2001, 2, 3, 4, 5, 6);
        public bool? Flag;
        [XmlIgnore] public bool FlagSpecified;
    }

    /// List<T> members: XmlSerializer creates each before reading, so an absent one reads as
    /// empty, and appends the items of a repeated one.
    public class Basket
    {
        public string Owner;
        public List<OrderLine> Items;
        public List<string> Notes;
    }

    /// [XmlRoot]: the name of the class's element where it stands alone: a parameter or result
    /// of it (then nillable), its HTTP GET/POST result document; its members and array items
    /// keep their own names.
    [XmlRoot("Receipt")]
    public class Voucher
    {
        public string Code;
        public int Value;
    }

    /// A SOAP header: who calls (the usual authentication header of a legacy service).
    /// Objects (xs:anyType) as members: a value naming its type, an array of them, and a
    /// string beside.
    public class Holder
    {
        public object Value;
        public object[] Values;
        public string Name;
    }

    /// Raw XML in a class: a label, every element no other member takes, and a count.
    public class Parcel
    {
        [XmlAttribute] public string Kind;
        [XmlAttribute(Form = XmlSchemaForm.Qualified)] public string Seal;
        [XmlAnyAttribute] public XmlAttribute[] Marks;
        public string Label;
        [XmlAnyElement] public XmlElement[] Extra;
        public int Count;
    }

    /// Raw XML members of each kind: an XmlElement, an XmlNode, arrays of both, and the one
    /// element no other member takes (the last of several).
    public class Wrapping
    {
        public XmlElement Doc;
        public XmlNode Node;
        public XmlElement[] Docs;
        public XmlNode[] Nodes;
        [XmlAnyElement] public XmlElement Last;
    }

    /// A text in a language: xml:lang (as ebXML's Description in real WSDLs) and the text.
    public class Phrase
    {
        [XmlAttribute("lang", Namespace = "http://www.w3.org/XML/1998/namespace")] public string Lang;
        [XmlText] public string Text;
    }

    /// A SOAP header of another namespace than the service's (WS-Security's and ebXML's
    /// kind): its element, type and members in urn:rmm:ext, and a class of that namespace it
    /// holds.
    [XmlType(Namespace = "urn:rmm:ext")]
    [XmlRoot(Namespace = "urn:rmm:ext")]
    public class ExtHeader : SoapHeader
    {
        public string Who;
        public int Level;
        public ExtNote Note;
        [XmlElement(Form = XmlSchemaForm.Unqualified)] public string Org;
        [XmlElement] public string[] Tag;
        [XmlElement] public ExtNote[] More;
        public object Dup;
        [XmlAttribute] public string Mode;
        [XmlAttribute(Form = XmlSchemaForm.Qualified, DataType = "ID")] public string Ref;
        [XmlAnyAttribute] public XmlAttribute[] Marks;
    }

    [XmlType(Namespace = "urn:rmm:ext")]
    public class ExtNote
    {
        public string Text;
    }

    /// A SOAP header written on a fault alone (SoapHeaderDirection.Fault).
    public class ErrHeader : SoapHeader
    {
        public string Code;
        public int Retry;
    }

    public class AuthHeader : SoapHeader
    {
        public string User;
        public string Password;
    }

    /// An InOut SOAP header: a trace the caller sends and the service hands back, moved on.
    public class TraceHeader : SoapHeader
    {
        public string Id;
        public int Hop;
    }

    /// An Out SOAP header: what the service says beside the result.
    public class StampHeader : SoapHeader
    {
        public string By;
        public int Hops;
    }

    /// A single choice of distinct types (xs:choice): the alternative's element names the
    /// value's type, between two ordinary members.
    public class Pick
    {
        public string Name;
        [XmlElement("Shape", typeof(Shape))]
        [XmlElement("Label", typeof(string))]
        [XmlElement("Count", typeof(int))]
        [XmlElement("Level", typeof(Level))]
        public object Item;
        public int Tail;
    }

    /// A repeated choice: items of three types in any order, then an ordinary member.
    public class Picks
    {
        [XmlElement("Line", typeof(OrderLine))]
        [XmlElement("Note", typeof(string))]
        [XmlElement("Size", typeof(int))]
        public object[] Items;
        public string Name;
    }

    /// Choices whose alternatives share a type: the element read or written is named by a
    /// choice identifier, a single one and an array of them.
    public class Named
    {
        [XmlElement("First", typeof(string))]
        [XmlElement("Last", typeof(string))]
        [XmlChoiceIdentifier("Which")]
        public string Name;
        [XmlIgnore] public NameKind Which;
        [XmlElement("Tag", typeof(string))]
        [XmlElement("Code", typeof(string))]
        [XmlChoiceIdentifier("Kinds")]
        public string[] Parts;
        [XmlIgnore] public PartKind[] Kinds;
    }

    /// Choices of nillable alternatives ([XmlElement(IsNullable = true)]), as Reporting
    /// Services' ParameterValues and AvaTax's batches have them: a single one and a repeated one.
    public class Maybe
    {
        [XmlElement("Line", typeof(OrderLine), IsNullable = true)]
        [XmlElement("Note", typeof(string), IsNullable = true)]
        public object Item;
        [XmlElement("Entry", typeof(OrderLine), IsNullable = true)]
        [XmlElement("Text", typeof(string), IsNullable = true)]
        public object[] Items;
        [XmlElement("Left", typeof(string), IsNullable = true)]
        [XmlElement("Right", typeof(string), IsNullable = true)]
        [XmlChoiceIdentifier("Side")]
        public string Either;
        [XmlIgnore] public SideKind Side;
        [XmlElement("Up", typeof(string), IsNullable = true)]
        [XmlElement("Down", typeof(string), IsNullable = true)]
        [XmlChoiceIdentifier("Ways")]
        public string[] Moves;
        [XmlIgnore] public WayKind[] Ways;
    }

    /// Attributes of value types that may be absent (`xxxSpecified`, as wsdl.exe makes of an
    /// attribute without use="required"): written only when specified.
    /// Attributes with default values ([DefaultValue] on [XmlAttribute], as wsdl.exe writes a
    /// proxy for `<s:attribute default="…">`): left out when equal to the default, absent read
    /// as the field's initial value.
    public class Flagged {
        [XmlAttribute, DefaultValue(false)] public bool Required = false;
        [XmlAttribute, DefaultValue("")] public string Caption = "";
        [XmlAttribute, DefaultValue("True")] public string Visible = "True";
        [XmlAttribute, DefaultValue(7)] public int Count = 7;
        [XmlAttribute, DefaultValue(Level.Normal)] public Level Grade = Level.Normal;
        public string Name;
    }

    public class Marked
    {
        [XmlAttribute] public int Count;
        [XmlIgnore] public bool CountSpecified;
        [XmlAttribute] public Level Grade;
        [XmlIgnore] public bool GradeSpecified;
        [XmlAttribute] public DateTime When;
        [XmlIgnore] public bool WhenSpecified;
        [XmlAttribute] public int Fixed;
        public string Body;
    }

    /// The choice identifier of Maybe.Either.
    [XmlType(IncludeInSchema = false)]
    public enum SideKind { Left, Right }

    /// The choice identifiers of Maybe.Moves.
    [XmlType(IncludeInSchema = false)]
    public enum WayKind { Up, Down }

    /// The choice identifier of Named.Name: the element names, not in the schema.
    [XmlType(IncludeInSchema = false)]
    public enum NameKind { First, Last }

    /// The choice identifiers of Named.Parts.
    [XmlType(IncludeInSchema = false)]
    public enum PartKind { Tag, Code }

    [WebService(Namespace = "http://rmm.example.com/objects", Description = "Classes, arrays and inheritance, echoed.")]
    [WebServiceBinding(ConformsTo = WsiProfiles.None)]
    public class ObjectsService : WebService
    {
        /// The AuthHeader of the request, for the operations that read it.
        public AuthHeader Auth;
        /// The TraceHeader, read from the request and written back into the response.
        public TraceHeader Trace;
        /// The StampHeader, written into the response when set.
        public StampHeader Stamp;
        /// The ExtHeader (of urn:rmm:ext), read and written back.
        public ExtHeader Ext;
        /// The ErrHeader, written with a fault.
        public ErrHeader Err;

        [WebMethod(Description = "Echoes an order.")]
        public Order EchoOrder(Order order) { return order; }

        [WebMethod(Description = "Echoes an array of orders.")]
        public Order[] EchoOrders(Order[] orders) { return orders; }

        [WebMethod(Description = "Echoes a tree.")]
        public TreeNode EchoTree(TreeNode node) { return node; }

        [WebMethod(Description = "Echoes an array of strings.")]
        public string[] EchoStringArray(string[] values) { return values; }

        [WebMethod(Description = "Makes an order of simple values: null for a negative id.")]
        public Order MakeOrder(int id, string note)
        {
            if (id < 0) return null;
            Order order = new Order();
            order.Id = id;
            order.Priority = Level.High;
            order.Tags = note == null ? null : new string[] { note, null, "" };
            order.Customer = new Customer();
            order.Customer.Address = new Address();
            order.Lines = new OrderLine[] { new OrderLine(), null };
            order.Matrix = new int[][] { new int[] { id }, null, new int[0] };
            return order;
        }

        [WebMethod(Description = "Makes count tags, the second null: null for a negative count.")]
        public string[] MakeTags(int count)
        {
            if (count < 0) return null;
            string[] tags = new string[count];
            for (int i = 0; i < count; i++) tags[i] = i == 1 ? null : "t" + i;
            return tags;
        }

        [WebMethod(Description = "Echoes an array of ints.")]
        public int[] EchoIntArray(int[] values) { return values; }

        [WebMethod(Description = "Echoes an array of enum values.")]
        public Level[] EchoLevels(Level[] values) { return values; }

        [WebMethod(Description = "Echoes a shape: a value of a class derived from an abstract one.")]
        public Shape EchoShape(Shape shape) { return shape; }

        [WebMethod(Description = "Echoes an array of shapes of mixed types.")]
        public Shape[] EchoShapes(Shape[] shapes) { return shapes; }

        [WebMethod(Description = "Echoes a drawing: members of a base type.")]
        public Drawing EchoDrawing(Drawing drawing) { return drawing; }

        [WebMethod(Description = "Makes count shapes, circles, squares and colored circles in turn: null for a negative count.")]
        public Shape[] MakeShapes(int count)
        {
            if (count < 0) return null;
            Shape[] shapes = new Shape[count];
            for (int i = 0; i < count; i++)
            {
                if (i % 3 == 0) { Circle c = new Circle(); c.Name = "c" + i; c.Radius = i + 0.5; shapes[i] = c; }
                else if (i % 3 == 1) { Square s = new Square(); s.Name = "s" + i; s.Side = i; shapes[i] = s; }
                else { ColoredCircle cc = new ColoredCircle(); cc.Name = "cc" + i; cc.Radius = i; cc.Color = "red"; shapes[i] = cc; }
            }
            return shapes;
        }

        [WebMethod(Description = "Makes a circle, a colored one when a color is given.")]
        public Circle MakeCircle(double radius, string color)
        {
            Circle c = color == null || color.Length == 0 ? new Circle() : new ColoredCircle();
            c.Name = "made";
            c.Radius = radius;
            if (c is ColoredCircle) ((ColoredCircle)c).Color = color;
            return c;
        }

        [WebMethod(Description = "Echoes flags.")]
        public Perms EchoFlags(Perms perms) { return perms; }

        [WebMethod(Description = "Echoes an array of flags.")]
        public Perms[] EchoFlagsArray(Perms[] values) { return values; }

        [WebMethod(Description = "Splits at the first space: head before it, the rest returned; adds its length to count.")]
        public string Split(string value, out string head, ref int count)
        {
            head = null;
            if (value == null) return null;
            int at = value.IndexOf(' ');
            count += value.Length;
            if (at < 0) { head = value; return null; }
            head = value.Substring(0, at);
            return value.Substring(at + 1);
        }

        [WebMethod(Description = "Divides: the quotient and the remainder, out.")]
        public void Divide(int dividend, int divisor, out int quotient, out Level? level)
        {
            quotient = divisor == 0 ? 0 : dividend / divisor;
            level = divisor == 0 ? (Level?)null : Level.High;
        }

        [WebMethod(Description = "Echoes a class with attributes.")]
        public Attributed EchoAttributes(Attributed value) { return value; }

        [WebMethod(Description = "Echoes a class with text content.")]
        public Note EchoText(Note note) { return note; }

        [WebMethod(Description = "Makes a note of text in a language.")]
        public Note MakeNote(string lang, string text)
        {
            Note note = new Note();
            note.Lang = lang;
            note.Text = text;
            return note;
        }

        [WebMethod(Description = "Echoes a bundle of arrays named otherwise.")]
        public Bundle EchoBundle(Bundle bundle) { return bundle; }

        [WebMethod(Description = "Counts an order's lines.")]
        public int CountLines(Order order, int extra)
        {
            int lines = order == null || order.Lines == null ? -1 : order.Lines.Length;
            return lines + extra;
        }

        [WebMethod(Description = "Echoes a tag: a class, and a member, named otherwise on the wire.")]
        public Tag EchoRenamed(Tag tag)
        {
            if (tag != null && tag.Note != null) throw new InvalidOperationException("an ignored member was read");
            return tag;
        }

        [WebMethod(Description = "Echoes settings: members with defaults and an optional value.")]
        public Settings EchoSettings(Settings settings) { return settings; }

        [WebMethod(Description = "Echoes a basket: members that are lists.")]
        public Basket EchoBasket(Basket basket) { return basket; }

        [WebMethod(Description = "Echoes a list of ints.")]
        public List<int> EchoIntList(List<int> values) { return values; }

        [WebMethod(Description = "Echoes a list of order lines.")]
        public List<OrderLine> EchoLineList(List<OrderLine> lines) { return lines; }

        [WebMethod(Description = "Makes a voucher, a class with a root: null for a null code.")]
        public Voucher MakeVoucher(string code, int value)
        {
            if (code == null) return null;
            Voucher voucher = new Voucher();
            voucher.Code = code;
            voucher.Value = value;
            return voucher;
        }

        [WebMethod(Description = "Echoes a voucher, a class with a root.")]
        public Voucher EchoVoucher(Voucher voucher) { return voucher; }

        [WebMethod(Description = "Echoes an order, bare parameter style.")]
        [SoapDocumentMethod(ParameterStyle = SoapParameterStyle.Bare)]
        public Order EchoOrderBare(Order order) { return order; }

        [WebMethod(Description = "Repeats a text up to 100 times, bare parameter style: null for a null text.")]
        [SoapDocumentMethod(ParameterStyle = SoapParameterStyle.Bare)]
        public string RepeatBare(string text, int times)
        {
            if (text == null) return null;
            string result = "";
            for (int i = 0; i < times && i < 100; i++) result += text;
            return result;
        }

        [WebMethod(MessageName = "AddInts", Description = "Adds two ints: an overload, named on the wire by its MessageName.")]
        public int Add(int a, int b) { return unchecked(a + b); }

        [WebMethod(MessageName = "AddTexts", Description = "Joins two texts: the other overload.")]
        public string Add(string a, string b) { return a + b; }

        [WebMethod(Description = "Says who calls, from the AuthHeader SOAP header: none without one.")]
        [SoapHeader("Auth")]
        public string WhoAmI(int n)
        {
            return Auth == null ? "none/" + n : Auth.User + "|" + Auth.Password + "/" + n;
        }

        [WebMethod(Description = "Echoes an XML element (raw XML, an XmlElement) as the host's DOM holds it: prefixes, comments and white space kept.")]
        public XmlElement EchoXml(XmlElement doc) { return doc; }

        [WebMethod(Description = "Makes an XML element: x:Made (urn:made) with the attribute at = n, holding x:Text with the text and an Empty element of no namespace; none for a negative n.")]
        public XmlElement MakeXml(string text, int n)
        {
            if (n < 0) return null;
            XmlDocument d = new XmlDocument();
            XmlElement made = d.CreateElement("x", "Made", "urn:made");
            made.SetAttribute("at", n.ToString(CultureInfo.InvariantCulture));
            XmlElement t = d.CreateElement("x", "Text", "urn:made");
            t.InnerText = text;
            made.AppendChild(t);
            made.AppendChild(d.CreateElement("Empty"));
            return made;
        }

        [WebMethod(Description = "Echoes an XML node (raw XML, an XmlNode): an element, a text or a CDATA section.")]
        public XmlNode EchoNode(XmlNode node) { return node; }

        [WebMethod(Description = "Makes an XML node of a text: none for a negative n, a text node for 0, an element x:Made (urn:made) holding it for 1, a CDATA section for 2.")]
        public XmlNode MakeNode(string text, int n)
        {
            XmlDocument d = new XmlDocument();
            switch (n)
            {
                case 0: return d.CreateTextNode(text);
                case 1:
                    XmlElement made = d.CreateElement("x", "Made", "urn:made");
                    made.InnerText = text;
                    return made;
                case 2: return d.CreateCDataSection(text);
                default: return null;
            }
        }

        [WebMethod(Description = "Moves a trace n hops on: the InOut TraceHeader comes back with Hop + n, and the answer is its new Hop (-1 without one); the Out StampHeader names the AuthHeader's user, and is left out for a negative n.")]
        [SoapHeader("Auth")]
        [SoapHeader("Stamp", Direction = SoapHeaderDirection.Out)]
        [SoapHeader("Trace", Direction = SoapHeaderDirection.InOut)]
        public int Hop(int n)
        {
            if (Trace != null) Trace.Hop += n;
            if (n >= 0)
            {
                Stamp = new StampHeader();
                Stamp.By = Auth == null ? null : Auth.User;
                Stamp.Hops = n;
            }
            return Trace == null ? -1 : Trace.Hop;
        }

        [WebMethod(Description = "Makes a DataSet Shop: a table Orders with a column of every type rmm models, n rows of values and one of nulls; an empty table; a table Shop Notes of white space and escapes; none for a negative n. n = 2: changes accepted, then the first order changed and the second deleted; n = 3: an error on the first order and on its Count; n = 4: the set of the namespace urn:rmm:shop (as a typed DataSet has one).")]
        public DataSet MakeDataSet(int n)
        {
            if (n < 0) return null;
            DataSet ds = new DataSet("Shop");
            DataTable t = ds.Tables.Add("Orders");
            t.Columns.Add("Name", typeof(string));
            t.Columns.Add("Count", typeof(int));
            t.Columns.Add("Big", typeof(long));
            t.Columns.Add("Small", typeof(short));
            t.Columns.Add("Tiny", typeof(byte));
            t.Columns.Add("Signed", typeof(sbyte));
            t.Columns.Add("UShort", typeof(ushort));
            t.Columns.Add("UInt", typeof(uint));
            t.Columns.Add("ULong", typeof(ulong));
            t.Columns.Add("Price", typeof(decimal));
            t.Columns.Add("Ratio", typeof(double));
            t.Columns.Add("Single", typeof(float));
            t.Columns.Add("Ok", typeof(bool));
            t.Columns.Add("When", typeof(DateTime));
            t.Columns.Add("Id", typeof(Guid));
            t.Columns.Add("Data", typeof(byte[]));
            t.Columns.Add("Required", typeof(int)).AllowDBNull = false;
            for (int i = 0; i < n; i++)
            {
                DataRow r = t.NewRow();
                r["Name"] = "order <" + i + "> & co";
                r["Count"] = i;
                r["Big"] = 10000000000L + i;
                r["Small"] = (short)(-i);
                r["Tiny"] = (byte)(250 + i);
                r["Signed"] = (sbyte)(-100 - i);
                r["UShort"] = (ushort)(60000 + i);
                r["UInt"] = 4000000000u + (uint)i;
                r["ULong"] = 18000000000000000000ul + (ulong)i;
                r["Price"] = 1.50m + i;
                r["Ratio"] = 0.1 * i;
                r["Single"] = 1.5f * i;
                r["Ok"] = i % 2 == 0;
                r["When"] = new DateTime(2024, 1, 2, 3, 4, 5, DateTimeKind.Utc).AddDays(i).AddTicks(1234500);
                r["Id"] = new Guid("00112233-4455-6677-8899-aabbccddee0" + i % 10);
                r["Data"] = new byte[] { 1, 2, (byte)i };
                r["Required"] = i * 7;
                t.Rows.Add(r);
            }
            DataRow nulls = t.NewRow();
            nulls["Required"] = -1;
            t.Rows.Add(nulls);
            ds.Tables.Add("Empty").Columns.Add("X", typeof(string));
            DataTable notes = ds.Tables.Add("Shop Notes");
            notes.Columns.Add("Note Text", typeof(string));
            foreach (string text in new string[] { "", " ", "a\nb", "]]> \"q\" 'a'" })
            {
                DataRow r = notes.NewRow();
                r[0] = text;
                notes.Rows.Add(r);
            }
            if (n == 2)
            {
                ds.AcceptChanges();
                t.Rows[0]["Name"] = "changed";
                t.Rows[1].Delete();
            }
            if (n == 3)
            {
                t.Rows[0].RowError = "first <bad>";
                t.Rows[0].SetColumnError("Count", "too many");
            }
            if (n == 4) ds.Namespace = "urn:rmm:shop";
            return ds;
        }

        [WebMethod(Description = "Echoes a DataSet as the host reads it: its rows renumbered, its values in their canonical forms.")]
        public DataSet EchoDataSet(DataSet ds) { return ds; }

        [WebMethod(Description = "Describes a DataSet as the host reads it: its name, then each table with its columns (name, .NET type, ! where nulls are not allowed) and its rows (state, values, original values, errors); null for none.")]
        public string DescribeDataSet(DataSet ds)
        {
            if (ds == null) return "null";
            StringBuilder sb = new StringBuilder(ds.DataSetName);
            foreach (DataTable t in ds.Tables)
            {
                sb.Append(" | ").Append(t.TableName).Append(" [");
                foreach (DataColumn c in t.Columns)
                {
                    sb.Append(c.ColumnName).Append(':').Append(c.DataType.Name);
                    if (!c.AllowDBNull) sb.Append('!');
                    sb.Append(' ');
                }
                sb.Append(']');
                foreach (DataRow r in t.Rows)
                {
                    sb.Append(" {").Append(r.RowState);
                    if (r.RowState != DataRowState.Deleted) Cells(sb, r, DataRowVersion.Current);
                    if (r.RowState == DataRowState.Modified || r.RowState == DataRowState.Deleted)
                    {
                        sb.Append(" was");
                        Cells(sb, r, DataRowVersion.Original);
                    }
                    if (r.RowError.Length > 0) sb.Append(" error ").Append(r.RowError);
                    foreach (DataColumn c in r.GetColumnsInError())
                        sb.Append(" error ").Append(c.ColumnName).Append(' ').Append(r.GetColumnError(c));
                    sb.Append('}');
                }
            }
            return sb.ToString();
        }

        static void Cells(StringBuilder sb, DataRow r, DataRowVersion version)
        {
            foreach (DataColumn c in r.Table.Columns)
            {
                object v = r[c, version];
                sb.Append(' ');
                if (v is DBNull) sb.Append("null");
                else if (v is string) sb.Append('"').Append((string)v).Append('"');
                else if (v is DateTime) sb.Append(XmlConvert.ToString((DateTime)v, XmlDateTimeSerializationMode.Local));
                else if (v is byte[]) sb.Append(Convert.ToBase64String((byte[])v));
                else if (v is Guid) sb.Append(v.ToString());
                else if (v is bool) sb.Append((bool)v ? "true" : "false");
                else if (v is double) sb.Append(XmlConvert.ToString((double)v));
                else if (v is float) sb.Append(XmlConvert.ToString((float)v));
                else if (v is decimal) sb.Append(XmlConvert.ToString((decimal)v));
                else sb.Append(Convert.ToString(v, CultureInfo.InvariantCulture));
            }
        }

        [WebMethod(Description = "Makes a lone DataTable Lines (Sku string, Qty int, Price decimal) of n rows, the last with a null price; none for a negative n.")]
        public DataTable MakeTable(int n)
        {
            if (n < 0) return null;
            DataTable t = new DataTable("Lines");
            t.Columns.Add("Sku", typeof(string));
            t.Columns.Add("Qty", typeof(int));
            t.Columns.Add("Price", typeof(decimal));
            for (int i = 0; i < n; i++)
            {
                DataRow r = t.NewRow();
                r["Sku"] = "sku-" + i + " <&>";
                r["Qty"] = i * 3;
                if (i < n - 1) r["Price"] = 0.25m + i;
                t.Rows.Add(r);
            }
            return t;
        }

        [WebMethod(Description = "Echoes a lone DataTable as the host reads it.")]
        public DataTable EchoTable(DataTable table) { return table; }

        [WebMethod(Description = "Reads the ExtHeader of urn:rmm:ext (who/level/note/n, none/n without one) and writes it back InOut, its Level raised by n.")]
        [SoapHeader("Ext", Direction = SoapHeaderDirection.InOut)]
        public string Visit(int n)
        {
            if (Ext == null) return "none/" + n;
            string seen = Ext.Who + "/" + Ext.Level + "/" + (Ext.Note == null ? "-" : Ext.Note.Text) + "/" + n;
            Ext.Level += n;
            return seen;
        }

        [WebMethod(Description = "Attempts n: a client fault for a negative n and a server fault for 0, each with the ErrHeader (code E<n>, retry 3 or 1) in its Header; ok n otherwise, the header set but not written.")]
        [SoapHeader("Err", Direction = SoapHeaderDirection.Fault)]
        public string Attempt(int n)
        {
            Err = new ErrHeader { Code = "E" + n, Retry = n < 0 ? 3 : 1 };
            if (n < 0) throw new SoapException("failed " + n, SoapException.ClientFaultCode);
            if (n == 0) throw new SoapException("boom", SoapException.ServerFaultCode);
            return "ok " + n;
        }

        [WebMethod(Description = "Echoes an object as the host reads it.")]
        public object EchoObject(object o) { return o; }

        [WebMethod(Description = "Echoes an array of objects.")]
        public object[] EchoObjects(object[] items) { return items; }

        [WebMethod(Description = "Echoes a holder of objects.")]
        public Holder EchoHolder(Holder h) { return h; }

        [WebMethod(Description = "Makes an object of a kind: 0 null, 1 a string, 2-13 the numbers and boolean, 14-15 dateTimes, 16 a char, 17 a Guid, 18 bytes, 19 an empty string, 20 new object(), 21 an enum, 22 a class, 23 an array of objects, 24 a text without type.")]
        public object MakeObject(int kind)
        {
            switch (kind)
            {
                case 1: return "text <&>";
                case 2: return 5;
                case 3: return -5L;
                case 4: return (short)5;
                case 5: return (byte)5;
                case 6: return (sbyte)-5;
                case 7: return 5u;
                case 8: return (ushort)5;
                case 9: return 18446744073709551615UL;
                case 10: return 5.5;
                case 11: return 0.1f;
                case 12: return 5.50m;
                case 13: return true;
                case 14: return new DateTime(2020, 1, 2, 3, 4, 5, DateTimeKind.Utc);
                case 15: return new DateTime(2020, 1, 2, 3, 4, 5, 678, DateTimeKind.Unspecified);
                case 16: return 'c';
                case 17: return new Guid("01234567-89ab-cdef-0123-456789abcdef");
                case 18: return new byte[] { 1, 2, 3 };
                case 19: return "";
                case 20: return new object();
                case 21: return Level.High;
                case 22: return MakeNote("en", "a note");
                case 23: return new object[] { 1, "a", null, 'z', new object[] { 2.5 } };
                case 24: return new XmlNode[] { new XmlDocument().CreateTextNode("free text") };
                default: return null;
            }
        }

        [WebMethod(Description = "Makes an array of n objects, of the kinds MakeObject makes in turn from 0 (a null first); null for a negative n.")]
        public object[] MakeObjects(int n)
        {
            if (n < 0) return null;
            object[] items = new object[n];
            for (int i = 0; i < n; i++) items[i] = MakeObject(i % 25);
            return items;
        }

        [WebMethod(Description = "Echoes an array of XML elements (XmlElement[]) as the host reads them.")]
        public XmlElement[] EchoElements(XmlElement[] items) { return items; }

        [WebMethod(Description = "Echoes an array of XML nodes (XmlNode[]) as the host reads them: each item's first node.")]
        public XmlNode[] EchoNodes(XmlNode[] nodes) { return nodes; }

        [WebMethod(Description = "Makes n XML nodes of a text, in turn a text node, an element x:Made (urn:made) holding it with the attribute at = its index, and a CDATA section; null for a negative n.")]
        public XmlNode[] MakeNodes(string text, int n)
        {
            if (n < 0) return null;
            XmlDocument d = new XmlDocument();
            XmlNode[] nodes = new XmlNode[n];
            for (int i = 0; i < n; i++)
            {
                switch (i % 3)
                {
                    case 0: nodes[i] = d.CreateTextNode(text); break;
                    case 1:
                        XmlElement made = d.CreateElement("x", "Made", "urn:made");
                        made.SetAttribute("at", i.ToString(CultureInfo.InvariantCulture));
                        made.InnerText = text;
                        nodes[i] = made;
                        break;
                    default: nodes[i] = d.CreateCDataSection(text); break;
                }
            }
            return nodes;
        }

        [WebMethod(Description = "Echoes a parcel, its extra elements as the host reads them.")]
        public Parcel EchoParcel(Parcel p) { return p; }

        [WebMethod(Description = "Makes a parcel Pn of kind kn, marked y:extra (urn:attr) vn, plain p and z:other (urn:attr) o, of n extra elements, in turn x:Made (urn:made) with at = its index and Plain of no namespace; null for a negative n.")]
        public Parcel MakeParcel(int n)
        {
            if (n < 0) return null;
            XmlDocument d = new XmlDocument();
            Parcel p = new Parcel();
            p.Label = "P" + n.ToString(CultureInfo.InvariantCulture);
            p.Count = n;
            p.Kind = "k" + n.ToString(CultureInfo.InvariantCulture);
            XmlAttribute extra = d.CreateAttribute("y", "extra", "urn:attr");
            extra.Value = "v" + n.ToString(CultureInfo.InvariantCulture);
            XmlAttribute plain = d.CreateAttribute("plain");
            plain.Value = "p";
            XmlAttribute other = d.CreateAttribute("z", "other", "urn:attr");
            other.Value = "o";
            p.Marks = new XmlAttribute[] { extra, plain, other };
            p.Extra = new XmlElement[n];
            for (int i = 0; i < n; i++)
            {
                if (i % 2 == 0)
                {
                    XmlElement made = d.CreateElement("x", "Made", "urn:made");
                    made.SetAttribute("at", i.ToString(CultureInfo.InvariantCulture));
                    p.Extra[i] = made;
                }
                else
                {
                    p.Extra[i] = d.CreateElement("Plain");
                }
            }
            return p;
        }

        [WebMethod(Description = "Echoes a wrapping of raw XML members as the host reads them.")]
        public Wrapping EchoWrapping(Wrapping w) { return w; }

        [WebMethod(Description = "Makes a wrapping: Doc x:Made (urn:made) with at = n, Node a text of n, Docs Plain then null, Nodes a text then a CDATA section, Last an element Tail of the service namespace; null for a negative n.")]
        public Wrapping MakeWrapping(int n)
        {
            if (n < 0) return null;
            XmlDocument d = new XmlDocument();
            string text = n.ToString(CultureInfo.InvariantCulture);
            Wrapping w = new Wrapping();
            XmlElement made = d.CreateElement("x", "Made", "urn:made");
            made.SetAttribute("at", text);
            w.Doc = made;
            w.Node = d.CreateTextNode(text);
            w.Docs = new XmlElement[] { d.CreateElement("Plain"), null };
            w.Nodes = new XmlNode[] { d.CreateTextNode("t" + text), d.CreateCDataSection("c" + text) };
            w.Last = d.CreateElement("Tail", "http://rmm.example.com/objects");
            return w;
        }

        [WebMethod(Description = "Splits an element: its name returned, its first child element and its first node (an element, a text or a CDATA section; comments, processing instructions and white space skipped) out; null and none for none.")]
        public string SplitXml(XmlElement doc, out XmlElement first, out XmlNode node)
        {
            first = null;
            node = null;
            if (doc == null) return null;
            foreach (XmlNode child in doc.ChildNodes)
            {
                if (first == null && child is XmlElement) first = (XmlElement)child;
                bool content = child is XmlElement || child.NodeType == XmlNodeType.Text
                    || child.NodeType == XmlNodeType.CDATA;
                if (node == null && content) node = child;
            }
            return doc.Name;
        }

        [WebMethod(Description = "Echoes a phrase, its xml:lang as the host reads it.")]
        public Phrase EchoPhrase(Phrase p) { return p; }

        [WebMethod(Description = "Makes a phrase of the text tn in the language en-n; null for a negative n.")]
        public Phrase MakePhrase(int n)
        {
            if (n < 0) return null;
            Phrase p = new Phrase();
            p.Lang = "en-" + n.ToString(CultureInfo.InvariantCulture);
            p.Text = "t" + n.ToString(CultureInfo.InvariantCulture);
            return p;
        }

        [WebMethod(Description = "Describes what the host read of an object: its .NET type; an array of objects' items in braces, any other array as array.")]
        public string DescribeObject(object o)
        {
            if (o == null) return "null";
            // Exactly object[]: a string[] is an object[] too, by covariance.
            if (o.GetType() != typeof(object[]))
                return o is Array && !(o is byte[]) && !(o is XmlNode[]) ? "array" : o.GetType().FullName;
            object[] items = (object[])o;
            StringBuilder sb = new StringBuilder("System.Object[] {");
            foreach (object item in items) sb.Append(' ').Append(DescribeObject(item));
            return sb.Append(" }").ToString();
        }

        [WebMethod(Description = "Makes the typed DataSet ShopDs: n orders with a value in every column, then one of nulls but its Id, and one note; null for a negative n.")]
        public ShopDs MakeShop(int n)
        {
            if (n < 0) return null;
            ShopDs ds = new ShopDs();
            for (int i = 0; i < n; i++)
            {
                ShopDs.OrdersRow row = ds.Orders.NewOrdersRow();
                row.Id = i;
                row.Name = "order " + i.ToString(CultureInfo.InvariantCulture);
                row.Count = i;
                row.Big = 10000000000L + i;
                row.Small = (short)(-i);
                row.Tiny = (byte)(250 + i);
                row.Signed = (sbyte)(-100 - i);
                row.UShort = (ushort)(60000 + i);
                row.UInt = 4000000000u + (uint)i;
                row.ULong = 18000000000000000000ul + (ulong)i;
                row.Price = 1.50m + i;
                row.Ratio = 0.5 * i;
                row.Single = 1.5f * i;
                row.Ok = i % 2 == 0;
                row.When = new DateTime(2024, 1, 2, 3, 4, 5, DateTimeKind.Utc).AddDays(i);
                row.Key = new Guid("00112233-4455-6677-8899-aabbccddee0" + (i % 10).ToString(CultureInfo.InvariantCulture));
                row.Data = new byte[] { 1, 2, (byte)i };
                ds.Orders.AddOrdersRow(row);
            }
            ShopDs.OrdersRow empty = ds.Orders.NewOrdersRow();
            empty.Id = -1;
            ds.Orders.AddOrdersRow(empty);
            ds.Notes.AddNotesRow("note <" + n.ToString(CultureInfo.InvariantCulture) + "> & co");
            return ds;
        }

        [WebMethod(Description = "Echoes the typed DataSet ShopDs as the host reads it.")]
        public ShopDs EchoShop(ShopDs ds) { return ds; }

        [WebMethod(Description = "Echoes a pick: a single choice of distinct types.")]
        public Pick EchoPick(Pick pick) { return pick; }

        [WebMethod(Description = "Echoes picks: a repeated choice.")]
        public Picks EchoPicks(Picks picks) { return picks; }

        [WebMethod(Description = "Echoes a named: choices of one type, told apart by choice identifiers.")]
        public Named EchoNamed(Named named) { return named; }

        [WebMethod(Description = "Makes a pick p (tail 9) of a kind: 0 no item, 1 a circle c of radius 1.5, 2 the label text, 3 the count 7, 4 the level High.")]
        public Pick MakePick(int kind)
        {
            Pick pick = new Pick();
            pick.Name = "p";
            pick.Tail = 9;
            switch (kind)
            {
                case 1: Circle c = new Circle(); c.Name = "c"; c.Radius = 1.5; pick.Item = c; break;
                case 2: pick.Item = "text"; break;
                case 3: pick.Item = 7; break;
                case 4: pick.Item = Level.High; break;
                default: pick.Item = null; break;
            }
            return pick;
        }

        [WebMethod(Description = "Echoes a maybe: choices of nillable alternatives.")]
        public Maybe EchoMaybe(Maybe maybe) { return maybe; }

        [WebMethod(Description = "Echoes a marked: attributes that may be absent.")]
        public Marked EchoMarked(Marked marked) { return marked; }

        [WebMethod(Description = "Echoes a flagged: attributes with default values.")]
        public Flagged EchoFlagged(Flagged flagged) { return flagged; }

        [WebMethod(Description = "Echoes a number: its wrapper elements and its result renamed.")]
        [SoapDocumentMethod(RequestElementName = "NumberRequest", ResponseElementName = "NumberReply")]
        [return: XmlElement("Answer")]
        public int EchoNumber(int value) { return value; }

        [WebMethod(Description = "Echoes a text: its result renamed.")]
        [return: XmlElement("Echoed")]
        public string EchoWord(string word) { return word; }
    }
}
