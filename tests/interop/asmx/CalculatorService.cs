// The quick start's service: the public calculator at http://www.dneonline.com/calculator.asmx
// (its WSDL is tests/fixtures/wild/dneonline-calculator.wsdl), written again so that the
// README's quick start runs against a real ASMX host with no network: tests/outside/run.sh
// serves this at /calculator.asmx and sends the quick start's requests for www.dneonline.com
// here through an HTTP proxy (http_proxy). Names, namespace and description are that service's.
using System.Web.Services;

namespace Rmm.Calculator
{
    [WebService(Namespace = "http://tempuri.org/")]
    [WebServiceBinding(ConformsTo = WsiProfiles.BasicProfile1_1)]
    public class Calculator : WebService
    {
        [WebMethod(Description = "Adds two integers. This is a test WebService. ©DNE Online")]
        public int Add(int intA, int intB) { return intA + intB; }

        [WebMethod]
        public int Subtract(int intA, int intB) { return intA - intB; }

        [WebMethod]
        public int Multiply(int intA, int intB) { return intA * intB; }

        // A zero divisor throws, and the host answers its Server fault, as the public one does.
        [WebMethod]
        public int Divide(int intA, int intB) { return intA / intB; }
    }
}
