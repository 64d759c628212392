<%@ WebService Language="C#" Class="Rmm.Types.TypesService" %>
