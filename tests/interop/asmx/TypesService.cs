// The second reference service: every simple type ASMX maps a .NET type to, as a parameter
// and as a result, for rmm's import and interop tests (tests/interop/asmx/README.md). Each
// echo returns its argument unchanged, so what the host writes is what it read; Describe
// prints every value of one call as XmlConvert writes it, in parameter order, as rmm's echo
// prints a string result: `Describe(a=1;b=…)`, `<null>` for a null.
using System;
using System.Web.Services;
using System.Xml;
using System.Xml.Serialization;

namespace Rmm.Types
{
    /// An enum with a wire name that is no identifier.
    public enum Level
    {
        Low,
        Normal,
        High,
        [XmlEnum("very-high")] VeryHigh,
    }

    [WebService(Namespace = "http://rmm.example.com/types", Description = "Every simple type & more, echoed.")]
    [WebServiceBinding(ConformsTo = WsiProfiles.None)]
    public class TypesService : WebService
    {
        [WebMethod(Description = "Echoes a string.")]
        public string EchoString(string value) { return value; }

        [WebMethod(Description = "Echoes a boolean.")]
        public bool EchoBoolean(bool value) { return value; }

        [WebMethod(Description = "Echoes a decimal.")]
        public decimal EchoDecimal(decimal value) { return value; }

        [WebMethod(Description = "Echoes an int.")]
        public int EchoInt(int value) { return value; }

        [WebMethod(Description = "Echoes a long.")]
        public long EchoLong(long value) { return value; }

        [WebMethod(Description = "Echoes a short.")]
        public short EchoShort(short value) { return value; }

        [WebMethod(Description = "Echoes an unsigned byte (.NET byte).")]
        public byte EchoUnsignedByte(byte value) { return value; }

        [WebMethod(Description = "Echoes a signed byte (.NET sbyte).")]
        public sbyte EchoByte(sbyte value) { return value; }

        [WebMethod(Description = "Echoes an unsigned short.")]
        public ushort EchoUnsignedShort(ushort value) { return value; }

        [WebMethod(Description = "Echoes an unsigned int.")]
        public uint EchoUnsignedInt(uint value) { return value; }

        [WebMethod(Description = "Echoes an unsigned long.")]
        public ulong EchoUnsignedLong(ulong value) { return value; }

        [WebMethod(Description = "Echoes a float.")]
        public float EchoFloat(float value) { return value; }

        [WebMethod(Description = "Echoes a double.")]
        public double EchoDouble(double value) { return value; }

        [WebMethod(Description = "Echoes a char.")]
        public char EchoChar(char value) { return value; }

        [WebMethod(Description = "Echoes a Guid.")]
        public Guid EchoGuid(Guid value) { return value; }

        [WebMethod(Description = "Echoes an enum value.")]
        public Level EchoLevel(Level value) { return value; }

        [WebMethod(Description = "Echoes a nullable int.")]
        public int? EchoNullableInt(int? value) { return value; }

        [WebMethod(Description = "Echoes a nullable double.")]
        public double? EchoNullableDouble(double? value) { return value; }

        [WebMethod(Description = "Echoes a nullable enum value.")]
        public Level? EchoNullableLevel(Level? value) { return value; }

        [WebMethod(Description = "Echoes a DateTime.")]
        public DateTime EchoDateTime(DateTime value) { return value; }

        [WebMethod(Description = "Echoes a date: a DateTime as an xs:date (DataType = \"date\").")]
        [return: XmlElement(DataType = "date")]
        public DateTime EchoDate([XmlElement(DataType = "date")] DateTime value) { return value; }

        [WebMethod(Description = "Echoes a byte array.")]
        public byte[] EchoBase64Binary(byte[] value) { return value; }

        [WebMethod(Description = "Answers nothing.")]
        public void Ping() { }

        [WebMethod(Description = "Prints every value it gets.")]
        public string Describe(int a, long b, short c, byte d, sbyte e, ushort f, uint g,
            ulong h, float i, double j, decimal k, bool l, char m, Level n, string o)
        {
            return "Describe(a=" + XmlConvert.ToString(a) + ";b=" + XmlConvert.ToString(b)
                + ";c=" + XmlConvert.ToString(c) + ";d=" + XmlConvert.ToString(d)
                + ";e=" + XmlConvert.ToString(e) + ";f=" + XmlConvert.ToString(f)
                + ";g=" + XmlConvert.ToString(g) + ";h=" + XmlConvert.ToString(h)
                + ";i=" + XmlConvert.ToString(i) + ";j=" + XmlConvert.ToString(j)
                + ";k=" + XmlConvert.ToString(k) + ";l=" + XmlConvert.ToString(l)
                + ";m=" + XmlConvert.ToString((ushort)m) + ";n=" + Wire(n)
                + ";o=" + (o ?? "<null>") + ")";
        }

        /// The wire name of a Level, as XmlSerializer writes it.
        static string Wire(Level level)
        {
            return level == Level.VeryHigh ? "very-high" : level.ToString();
        }
    }
}
