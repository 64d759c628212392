// Writes MicrosoftAjax.js, ASP.NET AJAX's client library (on which a [ScriptService]'s /js
// proxy runs), out of Mono's System.Web.Extensions, where it is an embedded resource.
//   mono ExtractAjax.exe OUT_FILE
using System;
using System.IO;
using System.Reflection;

class ExtractAjax
{
    static int Main(string[] args)
    {
        Assembly extensions = Assembly.Load("System.Web.Extensions, Version=4.0.0.0, Culture=neutral, PublicKeyToken=31bf3856ad364e35");
        using (Stream js = extensions.GetManifestResourceStream("MicrosoftAjax.js"))
        {
            if (js == null) { Console.Error.WriteLine("no MicrosoftAjax.js in " + extensions.Location); return 1; }
            using (FileStream output = File.Create(args[0])) { js.CopyTo(output); }
        }
        return 0;
    }
}
