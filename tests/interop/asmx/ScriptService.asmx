<%@ WebService Language="C#" Class="Rmm.Script.ScriptService" %>
