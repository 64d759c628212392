<%@ WebService Language="C#" Class="Rmm.Calculator.Calculator" %>
